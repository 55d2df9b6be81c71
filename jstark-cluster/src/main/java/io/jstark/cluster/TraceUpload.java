package io.jstark.cluster;

import io.grpc.stub.StreamObserver;
import io.jstark.air.trace.TableTrace;
import io.jstark.cluster.wire.TraceChunk;
import io.jstark.cluster.wire.UploadReply;
import io.jstark.math.memory.Matrix;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Streams a table's trace to its worker, for a statement without a recipe: chunks of at most {@link Wire#CHUNK_ROWS}
 * rows (fewer for wide tables, so that a chunk stays near a million cells), column by column within a chunk.
 */
final class TraceUpload {
    private TraceUpload() {}

    /**
     * Sends every row of {@code trace} to {@code worker} and waits for its acknowledgement within the deadline.
     *
     * @param phase what the upload's traffic counts under
     * @throws ClusterException naming the worker and the table when the upload fails or does not finish in time
     */
    static void upload(WorkerCalls calls, int worker, String proofId, int table, TableTrace trace, String phase) {
        CompletableFuture<UploadReply> done = new CompletableFuture<>();
        StreamObserver<TraceChunk> out = calls.asyncStub(worker, phase).uploadTrace(new StreamObserver<>() {
            @Override
            public void onNext(UploadReply reply) {
                done.complete(reply);
            }

            @Override
            public void onError(Throwable t) {
                done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                done.complete(null);
            }
        });
        try {
            sendChunks(out, done, proofId, table, trace.main());
            out.onCompleted();
        } catch (RuntimeException e) {
            out.onError(e);
            throw e;
        }
        await(calls, worker, trace, done);
    }

    /** Sends the chunks until every row went or the worker answered early (with an error). */
    private static void sendChunks(
            StreamObserver<TraceChunk> out,
            CompletableFuture<UploadReply> done,
            String proofId,
            int table,
            Matrix main) {
        int rows = main.rows();
        int columns = main.columns();
        int chunk = Math.max(1, Math.min(Wire.CHUNK_ROWS, (1 << 20) / Math.max(1, columns)));
        long[] column = new long[Math.min(rows, chunk)];
        for (int from = 0; from < rows && !done.isDone(); from += chunk) {
            int n = Math.min(chunk, rows - from);
            TraceChunk.Builder b = TraceChunk.newBuilder()
                    .setProofId(proofId)
                    .setTable(table)
                    .setFirstRow(from)
                    .setRows(n);
            for (int c = 0; c < columns; c++) {
                main.readColumn(c, from, column, 0, n);
                for (int k = 0; k < n; k++) {
                    b.addCells(column[k]);
                }
            }
            out.onNext(b.build());
        }
    }

    private static void await(WorkerCalls calls, int worker, TableTrace trace, CompletableFuture<UploadReply> done) {
        try {
            done.get(calls.deadline().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r
                    ? r
                    : new ClusterException("upload of table '" + trace.name() + "'", e.getCause());
        } catch (TimeoutException e) {
            throw new ClusterException(
                    "worker " + calls.workers().get(worker) + ": the upload of table '" + trace.name()
                            + "' did not finish within " + calls.deadline(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted uploading table '" + trace.name() + "'", e);
        }
    }
}
