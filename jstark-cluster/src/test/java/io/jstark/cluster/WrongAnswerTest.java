package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
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
import io.jstark.cluster.wire.Commitments;
import io.jstark.cluster.wire.Ext3Value;
import io.jstark.cluster.wire.FieldChunk;
import io.jstark.cluster.wire.Frame;
import io.jstark.cluster.wire.HashChunk;
import io.jstark.cluster.wire.LeafValues;
import io.jstark.cluster.wire.OodReply;
import io.jstark.cluster.wire.OpenLeavesReply;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A worker that answers a wrong value, or answers for other tables than the ones placed on it, is named in the error,
 * and no proof comes back: one answer of the second worker is changed on its way to the coordinator, as a faulty or
 * lying worker would send it.
 */
class WrongAnswerTest {
    private static final long P = 0xFFFF_FFFF_0000_0001L;
    private static WorkerProcesses workers;

    @BeforeAll
    static void startWorkers() throws Exception {
        workers = WorkerProcesses.start(2, "1G");
    }

    @AfterAll
    static void stopWorkers() {
        if (workers != null) {
            workers.close();
        }
    }

    @ParameterizedTest(name = "zero knowledge: {0}")
    @ValueSource(booleans = {false, true})
    void aWorkerWhoseOutOfDomainFrameIsWrongIsNamedWithItsTable(boolean zeroKnowledge) throws Exception {
        WorkerAddress liar = workers.first(2).get(1);
        int[] table = {-1};
        // the frame's last value is the composition's: it no longer matches the constraints at the point
        ChangeFirst<OodReply> change = new ChangeFirst<>(liar, OodReply.class, reply -> {
            Frame frame = reply.getFrames(0);
            table[0] = frame.getTable();
            int last = frame.getValuesCount() - 1;
            Ext3Value v = frame.getValues(last);
            return reply.toBuilder()
                    .setFrames(
                            0, frame.toBuilder().setValues(last, v.toBuilder().setC0(other(v.getC0()))))
                    .build();
        });
        try (Workload w = MIX.generate(LOG_SIZE, 11)) {
            assertThatThrownBy(() -> prove(w, change, zeroKnowledge))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("worker " + liar + " answered an out-of-domain frame of table '"
                            + w.tables().get(table[0]).name() + "'");
        }
    }

    /** With zero knowledge the changed value is the leaf's last element, a salt: the salts are held to the root too. */
    @ParameterizedTest(name = "zero knowledge: {0}")
    @ValueSource(booleans = {false, true})
    void aWorkerWhoseOpenedLeafIsWrongIsNamedWithItsTable(boolean zeroKnowledge) throws Exception {
        WorkerAddress liar = workers.first(2).get(1);
        ChangeFirst<OpenLeavesReply> change = new ChangeFirst<>(liar, OpenLeavesReply.class, reply -> {
            LeafValues leaf = reply.getValues(0);
            int at = zeroKnowledge ? leaf.getElementsCount() - 1 : 0;
            return reply.toBuilder()
                    .setValues(0, leaf.toBuilder().setElements(at, other(leaf.getElements(at))))
                    .build();
        });
        try (Workload w = MIX.generate(LOG_SIZE, 11)) {
            assertThatThrownBy(() -> prove(w, change, zeroKnowledge))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("worker " + liar + " opened leaves")
                    .hasMessageContaining("of table '")
                    .hasMessageContaining("that do not open the root it committed");
        }
    }

    @Test
    void aWorkerWhoseStreamedLeafHashIsWrongIsNamedWhenTheLeafIsOpened() throws Exception {
        WorkerAddress liar = workers.first(2).get(1);
        // every leaf hash of the chunk changes, so that the queries open one of them
        ChangeFirst<HashChunk> change = new ChangeFirst<>(liar, HashChunk.class, chunk -> {
            byte[] hashes = chunk.getHashes().toByteArray();
            for (int at = 0; at < hashes.length; at += 32) {
                hashes[at] ^= 1;
            }
            return chunk.toBuilder().setHashes(ByteString.copyFrom(hashes)).build();
        });
        try (Workload w = MIX.generate(LOG_SIZE, 11)) {
            assertThatThrownBy(() -> prove(w, change, false))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("worker " + liar + " opened leaf")
                    .hasMessageContaining(
                            "with elements that do not hash to the leaf hash it streamed for the phase tree");
        }
    }

    /** The changed value is the constant coefficient's first limb: the contribution is wrong at every position. */
    @ParameterizedTest(name = "zero knowledge: {0}")
    @ValueSource(booleans = {false, true})
    void aWorkerWhoseDeepContributionIsWrongIsNamedWithItsTables(boolean zeroKnowledge) throws Exception {
        WorkerAddress liar = workers.first(2).get(1);
        ChangeFirst<FieldChunk> change = new ChangeFirst<>(
                liar,
                FieldChunk.class,
                chunk -> chunk.toBuilder()
                        .setValues(0, other(chunk.getValues(0)))
                        .build());
        try (Workload w = MIX.generate(LOG_SIZE, 11)) {
            assertThatThrownBy(() -> prove(w, change, zeroKnowledge))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("worker " + liar + " answered a DEEP contribution for tables '")
                    .hasMessageContaining("from the one the rows it opened give");
        }
    }

    @Test
    void aWorkerThatAnswersForATablePlacedOnAnotherIsRefusedNamingItAndTheTable() throws Exception {
        WorkerAddress liar = workers.first(2).get(1);
        int[] table = {-1};
        // its first commitment is relabelled as the first table it does not hold
        ChangeFirst<Commitments> change = new ChangeFirst<>(liar, Commitments.class, reply -> {
            Set<Integer> own = new HashSet<>();
            reply.getCommitmentsList().forEach(c -> own.add(c.getTable()));
            table[0] = IntStream.iterate(0, i -> i + 1)
                    .filter(i -> !own.contains(i))
                    .findFirst()
                    .orElseThrow();
            return reply.toBuilder()
                    .setCommitments(0, reply.getCommitments(0).toBuilder().setTable(table[0]))
                    .build();
        });
        try (Workload w = MIX.generate(LOG_SIZE, 11)) {
            assertThatThrownBy(() -> prove(w, change, false))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("worker " + liar + ": its main_commit answer holds table '"
                            + w.tables().get(table[0]).name() + "', which is not placed on it");
        }
    }

    @Test
    void aWorkerThatLeavesOutATablePlacedOnItIsRefusedNamingItAndTheTable() throws Exception {
        WorkerAddress liar = workers.first(2).get(1);
        int[] table = {-1};
        ChangeFirst<Commitments> change = new ChangeFirst<>(liar, Commitments.class, reply -> {
            int last = reply.getCommitmentsCount() - 1;
            table[0] = reply.getCommitments(last).getTable();
            return reply.toBuilder().removeCommitments(last).build();
        });
        try (Workload w = MIX.generate(LOG_SIZE, 11)) {
            assertThatThrownBy(() -> prove(w, change, false))
                    .isInstanceOf(ClusterException.class)
                    .hasMessageContaining("worker " + liar + ": its main_commit answer leaves out table '"
                            + w.tables().get(table[0]).name() + "', which is placed on it");
        }
    }

    private static final Example MIX = Examples.byName("mix");
    private static final int LOG_SIZE = MIX.minLogSize() + 1;

    private static byte[] prove(Workload w, ClientInterceptor change, boolean zeroKnowledge) {
        try (RemoteBackend cluster = RemoteBackend.onWorkers(workers.first(2))
                        .recipe("mix", LOG_SIZE, 11)
                        .deadline(Duration.ofSeconds(120))
                        .intercept(change)
                        .build();
                JstarkProver remote = Jstark.prover(MIX.airs())
                        .options(zeroKnowledge ? ClusterProofTest.ZK_OPTIONS : ClusterProofTest.OPTIONS)
                        .backend(cluster)
                        .build()) {
            return remote.prove(w.tables()).bytes();
        }
    }

    /** A canonical field element other than {@code v}. */
    private static long other(long v) {
        return v == 0 ? P - 1 : v - 1;
    }

    /** Changes the first answer of type {@code type} that the worker at {@code worker} sends. */
    private static final class ChangeFirst<M> implements ClientInterceptor {
        private final String authority;
        private final Class<M> type;
        private final UnaryOperator<M> change;
        private final AtomicBoolean done = new AtomicBoolean();

        ChangeFirst(WorkerAddress worker, Class<M> type, UnaryOperator<M> change) {
            this.authority = worker.host() + ":" + worker.port();
            this.type = type;
            this.change = change;
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
                    super.start(
                            new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                                @Override
                                @SuppressWarnings("unchecked")
                                public void onMessage(A message) {
                                    boolean first = type.isInstance(message) && done.compareAndSet(false, true);
                                    super.onMessage(first ? (A) change.apply(type.cast(message)) : message);
                                }
                            },
                            headers);
                }
            };
        }
    }
}
