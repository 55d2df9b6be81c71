package io.jstark.cluster;

import io.grpc.ManagedChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * gRPC's own keepalive on the connections between the coordinator and its workers: HTTP/2 pings below the calls, so
 * that a connection silently dropped by the network, or closed by an idle NAT or proxy, is found by the transport even
 * between proofs, when no heartbeat runs. The coordinator pings every {@code pingInterval} and closes the connection
 * when a ping's answer takes longer than {@code pingTimeout}; the worker accepts a ping as often as every
 * {@code permittedPingInterval}. A gRPC server answers pings more frequent than it permits (or, unless it permits them
 * without calls, any ping while no call is in flight) with GOAWAY {@code too_many_pings}, so the coordinator's interval
 * is never shorter than the permitted one and both sides agree on pings without calls.
 *
 * @param pingInterval the coordinator's time without reads from a worker before it pings it
 * @param pingTimeout the most a ping's answer may take before the coordinator drops the connection
 * @param withoutCalls whether the coordinator pings, and the worker accepts pings, while no call is in flight
 * @param permittedPingInterval the shortest time between two pings a worker accepts
 */
record KeepAlive(Duration pingInterval, Duration pingTimeout, boolean withoutCalls, Duration permittedPingInterval) {
    /**
     * A ping every 20 s (below the idle timeouts of common NATs and load balancers), answered within 10 s, between
     * proofs too; a worker accepts one every 10 s, twice the coordinator's rate.
     */
    static final KeepAlive DEFAULT =
            new KeepAlive(Duration.ofSeconds(20), Duration.ofSeconds(10), true, Duration.ofSeconds(10));

    /**
     * @throws IllegalArgumentException when a duration is not positive, or the coordinator would ping more often than the
     *     worker permits
     */
    KeepAlive {
        Objects.requireNonNull(pingInterval, "pingInterval");
        Objects.requireNonNull(pingTimeout, "pingTimeout");
        Objects.requireNonNull(permittedPingInterval, "permittedPingInterval");
        if (!pingInterval.isPositive() || !pingTimeout.isPositive() || !permittedPingInterval.isPositive()) {
            throw new IllegalArgumentException("keepalive durations must be positive, got " + pingInterval + ", "
                    + pingTimeout + " and " + permittedPingInterval);
        }
        if (pingInterval.compareTo(permittedPingInterval) < 0) {
            throw new IllegalArgumentException("a ping every " + pingInterval + " is more often than the "
                    + permittedPingInterval + " the workers permit: they would answer GOAWAY too_many_pings");
        }
    }

    /**
     * The coordinator's side, on a channel to a worker.
     *
     * @param channel the channel's builder
     * @return the same builder, pinging as this says
     */
    ManagedChannelBuilder<?> onChannel(ManagedChannelBuilder<?> channel) {
        return channel.keepAliveTime(pingInterval.toNanos(), TimeUnit.NANOSECONDS)
                .keepAliveTimeout(pingTimeout.toNanos(), TimeUnit.NANOSECONDS)
                .keepAliveWithoutCalls(withoutCalls);
    }

    /**
     * The worker's side.
     *
     * @param server the worker's server builder
     * @return the same builder, accepting the coordinator's pings as this says
     */
    NettyServerBuilder onServer(NettyServerBuilder server) {
        return server.permitKeepAliveTime(permittedPingInterval.toNanos(), TimeUnit.NANOSECONDS)
                .permitKeepAliveWithoutCalls(withoutCalls);
    }
}
