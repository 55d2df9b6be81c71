package io.jstark.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the coordinator sent to and received from its workers, per phase (the serialized protobuf messages: what
 * crosses the network before HTTP/2 framing and TLS), in the order the phases first moved bytes.
 */
public final class Traffic {
    private final Map<String, AtomicLong[]> byPhase = new LinkedHashMap<>();

    void sent(String phase, long bytes) {
        counters(phase)[0].addAndGet(bytes);
    }

    void received(String phase, long bytes) {
        counters(phase)[1].addAndGet(bytes);
    }

    private synchronized AtomicLong[] counters(String phase) {
        return byPhase.computeIfAbsent(phase, p -> new AtomicLong[] {new AtomicLong(), new AtomicLong()});
    }

    /**
     * The counts so far.
     *
     * @return per phase {sent, received}, in the order the phases first moved bytes
     */
    public synchronized Map<String, long[]> snapshot() {
        Map<String, long[]> out = new LinkedHashMap<>();
        byPhase.forEach((phase, c) -> out.put(phase, new long[] {c[0].get(), c[1].get()}));
        return out;
    }

    /** {@return the bytes sent and received over all phases} */
    public long totalBytes() {
        long total = 0;
        for (long[] c : snapshot().values()) {
            total += c[0] + c[1];
        }
        return total;
    }

    /** {@return one line per phase: its name, bytes sent, bytes received} */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(String.format("%-18s %14s %14s%n", "phase", "sent bytes", "received bytes"));
        snapshot().forEach((phase, c) -> s.append(String.format("%-18s %14d %14d%n", phase, c[0], c[1])));
        return s.toString();
    }
}
