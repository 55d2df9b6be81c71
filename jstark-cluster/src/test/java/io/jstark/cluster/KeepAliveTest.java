package io.jstark.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ConnectivityState;
import io.grpc.ForwardingChannelBuilder2;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * gRPC keepalive between the coordinator and a worker: the coordinator's channels ping as {@link KeepAlive} says, a
 * worker accepts those pings on an idle connection instead of answering GOAWAY {@code too_many_pings}, and a connection
 * the network drops silently is closed by its pings.
 */
class KeepAliveTest {
    /** The shortest ping interval gRPC's Netty channel allows: it raises anything shorter to this. */
    private static final Duration SHORTEST_PING_INTERVAL = Duration.ofSeconds(10);
    /** An HTTP/2 PING frame, and its acknowledgement: a 9-byte frame header and 8 bytes of payload. */
    private static final long PING_FRAME_BYTES = 17;
    /** A worker on gRPC's default server settings answers the third ping of an idle connection with GOAWAY. */
    private static final int PINGS_A_DEFAULT_SERVER_REFUSES_BY = 3;
    /** Far above what the waits below need, on a loaded machine. */
    private static final long GENEROUS_MILLIS = 120_000;

    @Test
    void theCoordinatorPingsEvery20sAnsweredWithin10sWithOrWithoutCallsAndWorkersPermitAPingEvery10s() {
        assertThat(KeepAlive.DEFAULT)
                .isEqualTo(new KeepAlive(Duration.ofSeconds(20), Duration.ofSeconds(10), true, Duration.ofSeconds(10)));
    }

    @Test
    void aChannelGetsThePingIntervalTimeoutAndPingsWithoutCallsOfTheKeepAlive() {
        RecordingChannelBuilder channel = new RecordingChannelBuilder();
        KeepAlive.DEFAULT.onChannel(channel);
        assertThat(channel.pingIntervalNanos).isEqualTo(Duration.ofSeconds(20).toNanos());
        assertThat(channel.pingTimeoutNanos).isEqualTo(Duration.ofSeconds(10).toNanos());
        assertThat(channel.withoutCalls).isTrue();
    }

    @Test
    void aCoordinatorPingingMoreOftenThanItsWorkersPermitIsRefused() {
        assertThatThrownBy(() ->
                        new KeepAlive(Duration.ofSeconds(5), Duration.ofSeconds(10), true, Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too_many_pings");
        assertThatThrownBy(() -> new KeepAlive(Duration.ofSeconds(20), Duration.ZERO, true, Duration.ofSeconds(10)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWorkerKeepsAnIdleConnectionPingedAsOftenAsGrpcAllowsAndASilentlyDroppedConnectionIsClosedByItsPings()
            throws Exception {
        KeepAlive frequent = new KeepAlive(
                SHORTEST_PING_INTERVAL, Duration.ofSeconds(5), true, KeepAlive.DEFAULT.permittedPingInterval());
        try (WorkerServer worker = WorkerServer.start("127.0.0.1", 0, 1L << 30, ClusterTls.PLAINTEXT);
                LoopbackRelay kept = LoopbackRelay.to(worker.port());
                LoopbackRelay dropped = LoopbackRelay.to(worker.port())) {
            ManagedChannel keptChannel = channel(frequent, kept);
            ManagedChannel droppedChannel = channel(frequent, dropped);
            try {
                assertThat(serving(keptChannel)).isTrue();
                assertThat(serving(droppedChannel)).isTrue();
                List<ConnectivityState> keptChanges = changesFrom(keptChannel);
                List<ConnectivityState> droppedChanges = changesFrom(droppedChannel);
                long sentBefore = kept.bytesTowardsTarget();
                long receivedBefore = kept.bytesFromTarget();
                dropped.goSilent();
                // both connections idle: the kept one carries pings and their answers only, the dropped one nothing
                long pingBytes = PINGS_A_DEFAULT_SERVER_REFUSES_BY * PING_FRAME_BYTES;
                awaitOrGiveUp(() -> !keptChanges.isEmpty()
                        || (kept.bytesTowardsTarget() - sentBefore >= pingBytes
                                && kept.bytesFromTarget() - receivedBefore >= pingBytes
                                && !droppedChanges.isEmpty()));

                assertThat(keptChanges)
                        .as("the pinged connection's states: no GOAWAY closed it")
                        .isEmpty();
                assertThat(kept.bytesTowardsTarget() - sentBefore)
                        .as("pings sent on the idle connection")
                        .isGreaterThanOrEqualTo(pingBytes);
                assertThat(droppedChanges)
                        .as("the silently dropped connection's states after its unanswered ping")
                        .isNotEmpty()
                        .doesNotContain(ConnectivityState.READY);
                assertThat(serving(keptChannel)).isTrue();
                assertThat(kept.connections())
                        .as("connections the pinged channel opened")
                        .isEqualTo(1);
            } finally {
                keptChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
                droppedChannel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    private static ManagedChannel channel(KeepAlive keepAlive, LoopbackRelay relay) {
        return keepAlive
                .onChannel(Grpc.newChannelBuilderForAddress(
                        "127.0.0.1", relay.port(), InsecureChannelCredentials.create()))
                .build();
    }

    private static boolean serving(ManagedChannel channel) {
        return HealthGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(GENEROUS_MILLIS, TimeUnit.MILLISECONDS)
                        .check(HealthCheckRequest.newBuilder()
                                .setService(WorkerServer.SERVICE)
                                .build())
                        .getStatus()
                == HealthCheckResponse.ServingStatus.SERVING;
    }

    /** Every state {@code channel} enters from now on. */
    private static List<ConnectivityState> changesFrom(ManagedChannel channel) {
        List<ConnectivityState> changes = new CopyOnWriteArrayList<>();
        watch(channel, channel.getState(false), changes);
        return changes;
    }

    private static void watch(ManagedChannel channel, ConnectivityState from, List<ConnectivityState> changes) {
        channel.notifyWhenStateChanged(from, () -> {
            ConnectivityState now = channel.getState(false);
            if (now != ConnectivityState.SHUTDOWN) {
                changes.add(now);
                watch(channel, now, changes);
            }
        });
    }

    private static void awaitOrGiveUp(BooleanSupplier done) throws InterruptedException {
        long start = System.nanoTime();
        while (!done.getAsBoolean() && System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS)) {
            Thread.sleep(100);
        }
    }

    /** A channel builder that only records the keepalive it is given. */
    private static final class RecordingChannelBuilder extends ForwardingChannelBuilder2<RecordingChannelBuilder> {
        private final ManagedChannelBuilder<?> delegate =
                Grpc.newChannelBuilderForAddress("127.0.0.1", 1, InsecureChannelCredentials.create());
        long pingIntervalNanos;
        long pingTimeoutNanos;
        boolean withoutCalls;

        @Override
        protected ManagedChannelBuilder<?> delegate() {
            return delegate;
        }

        @Override
        public RecordingChannelBuilder keepAliveTime(long time, TimeUnit unit) {
            pingIntervalNanos = unit.toNanos(time);
            return this;
        }

        @Override
        public RecordingChannelBuilder keepAliveTimeout(long timeout, TimeUnit unit) {
            pingTimeoutNanos = unit.toNanos(timeout);
            return this;
        }

        @Override
        public RecordingChannelBuilder keepAliveWithoutCalls(boolean enable) {
            withoutCalls = enable;
            return this;
        }
    }
}
