package io.jstark.cluster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What crossed the wire between the coordinator and its workers, per phase, measured on every call as it happens: the
 * calls made, the bytes of the serialized protobuf messages sent and received (the payload, before HTTP/2 framing and
 * TLS), and the wall time during which at least one call of the phase was in flight (the union of the calls' intervals,
 * from a call's start to its close: a round's call holds the worker's work on its tables too). Every call to a worker
 * goes through {@link #interceptor()}, its phase the {@link #PHASE} option of its stub.
 */
public final class Traffic {
    /** The phase a call is counted under; a call without one counts under {@code other}. */
    static final CallOptions.Key<String> PHASE = CallOptions.Key.createWithDefault("jstark-phase", "other");

    /**
     * One phase's figures.
     *
     * @param calls the calls made
     * @param sentBytes the bytes of the messages sent
     * @param receivedBytes the bytes of the messages received
     * @param wireNanos the wall time with at least one of its calls in flight
     */
    public record PhaseTraffic(long calls, long sentBytes, long receivedBytes, long wireNanos) {}

    /** Made by the backend whose calls it counts. */
    Traffic() {}

    /** Mutable counters of one phase, guarded by the Traffic's lock. */
    private static final class Counters {
        long calls;
        long sent;
        long received;
        long nanos;
        int inFlight;
        long since;
    }

    private final Map<String, Counters> byPhase = new LinkedHashMap<>();
    private final ClientInterceptor interceptor = new ClientInterceptor() {
        @Override
        public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
            return new CountedCall<>(next.newCall(method, options), options.getOption(PHASE));
        }
    };

    /** {@return the interceptor that counts every call of the channels it is installed on} */
    ClientInterceptor interceptor() {
        return interceptor;
    }

    private final class CountedCall<Q, A> extends ForwardingClientCall.SimpleForwardingClientCall<Q, A> {
        private final String phase;
        private boolean closed;

        CountedCall(ClientCall<Q, A> call, String phase) {
            super(call);
            this.phase = phase;
        }

        @Override
        public void start(Listener<A> listener, Metadata headers) {
            callStarted(phase);
            try {
                super.start(
                        new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                            @Override
                            public void onMessage(A message) {
                                counted(phase, 0, size(message));
                                super.onMessage(message);
                            }

                            @Override
                            public void onClose(Status status, Metadata trailers) {
                                end();
                                super.onClose(status, trailers);
                            }
                        },
                        headers);
            } catch (RuntimeException | Error e) {
                end();
                throw e;
            }
        }

        private void end() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            callEnded(phase);
        }

        @Override
        public void sendMessage(Q message) {
            counted(phase, size(message), 0);
            super.sendMessage(message);
        }
    }

    private static long size(Object message) {
        return message instanceof com.google.protobuf.MessageLite m ? m.getSerializedSize() : 0;
    }

    private synchronized Counters counters(String phase) {
        return byPhase.computeIfAbsent(phase, p -> new Counters());
    }

    private void callStarted(String phase) {
        Counters c = counters(phase);
        synchronized (this) {
            c.calls++;
            if (c.inFlight++ == 0) {
                c.since = System.nanoTime();
            }
        }
    }

    private void callEnded(String phase) {
        Counters c = counters(phase);
        synchronized (this) {
            if (--c.inFlight == 0) {
                c.nanos += System.nanoTime() - c.since;
            }
        }
    }

    private void counted(String phase, long sent, long received) {
        Counters c = counters(phase);
        synchronized (this) {
            c.sent += sent;
            c.received += received;
        }
    }

    /**
     * The figures so far; a phase with calls in flight counts their time up to now.
     *
     * @return per phase its figures, in the order the phases first made a call
     */
    public synchronized Map<String, PhaseTraffic> snapshot() {
        long now = System.nanoTime();
        Map<String, PhaseTraffic> out = new LinkedHashMap<>();
        byPhase.forEach((phase, c) -> out.put(
                phase, new PhaseTraffic(c.calls, c.sent, c.received, c.nanos + (c.inFlight > 0 ? now - c.since : 0))));
        return out;
    }

    /** {@return the bytes sent and received over all phases} */
    public long totalBytes() {
        long total = 0;
        for (PhaseTraffic t : snapshot().values()) {
            total += t.sentBytes() + t.receivedBytes();
        }
        return total;
    }

    /** {@return one line per phase: its name, calls, bytes sent, bytes received, wall seconds with a call in flight} */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(String.format(
                java.util.Locale.ROOT,
                "%-18s %7s %14s %14s %10s%n",
                "phase",
                "calls",
                "sent bytes",
                "received bytes",
                "rpc wall s"));
        snapshot()
                .forEach((phase, t) -> s.append(String.format(
                        java.util.Locale.ROOT,
                        "%-18s %7d %14d %14d %10.3f%n",
                        phase,
                        t.calls(),
                        t.sentBytes(),
                        t.receivedBytes(),
                        t.wireNanos() / 1e9)));
        return s.toString();
    }
}
