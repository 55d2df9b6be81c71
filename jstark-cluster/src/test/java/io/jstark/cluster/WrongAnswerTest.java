package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.cluster.wire.Ext3Value;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.OodReply;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A worker that answers a wrong value is named in the error, with the table, and no proof comes back. */
class WrongAnswerTest {
    private static final long P = 0xFFFF_FFFF_0000_0001L;

    @Test
    void aWorkerWhoseOutOfDomainFrameIsWrongIsNamedWithItsTable() throws Exception {
        Example example = Examples.byName("mix");
        int logSize = example.minLogSize() + 1;
        try (WorkerProcesses workers = WorkerProcesses.start(2, "1G")) {
            WorkerAddress liar = workers.first(2).get(1);
            CorruptFirstFrame corrupt = new CorruptFirstFrame(liar.host() + ":" + liar.port());
            try (Workload w = example.generate(logSize, 11);
                    RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(2)).recipe("mix", logSize, 11).deadline(Duration.ofSeconds(120))
                            .intercept(corrupt).build();
                    JstarkProver remote = Jstark.prover(example.airs()).options(ClusterProofTest.OPTIONS).backend(cluster).build()) {
                assertThatThrownBy(() -> remote.prove(w.tables())).isInstanceOf(ClusterException.class)
                        .hasMessageContaining("worker " + liar + " answered an out-of-domain frame of table '" + w.tables().get(corrupt.table()).name() + "'");
            }
        }
    }

    /** Changes one value of the first frame the worker at {@code authority} answers, as a faulty or lying worker would. */
    private static final class CorruptFirstFrame implements ClientInterceptor {
        private final String authority;
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile int table = -1;

        CorruptFirstFrame(String authority) {
            this.authority = authority;
        }

        /** {@return the proof index of the table whose frame was changed} */
        int table() {
            return table;
        }

        @Override
        public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
            ClientCall<Q, A> call = next.newCall(method, options);
            if (!next.authority().equals(authority)) {
                return call;
            }
            return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
                @Override
                public void start(Listener<A> listener, Metadata headers) {
                    super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                        @Override
                        @SuppressWarnings("unchecked")
                        public void onMessage(A message) {
                            super.onMessage(message instanceof OodReply reply && done.compareAndSet(false, true) ? (A) corrupted(reply) : message);
                        }
                    }, headers);
                }
            };
        }

        private OodReply corrupted(OodReply reply) {
            Frame frame = reply.getFrames(0);
            table = frame.getTable();
            Ext3Value v = frame.getValues(frame.getValuesCount() - 1);
            // the last value is the composition's: it no longer matches the constraints at the point
            long c0 = v.getC0() == 0 ? P - 1 : v.getC0() - 1;
            Frame wrong = frame.toBuilder().setValues(frame.getValuesCount() - 1, v.toBuilder().setC0(c0)).build();
            return reply.toBuilder().setFrames(0, wrong).build();
        }
    }
}
