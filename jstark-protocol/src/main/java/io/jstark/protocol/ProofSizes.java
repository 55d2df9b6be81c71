package io.jstark.protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Byte counts per part, over the whole proof and per table: filled by {@link ProofFormat#writeWithSizes}, or by a
 * reader given one ({@link ProofFormat#read(byte[], ProofSizes)}). Not thread-safe: one per write or read.
 */
public final class ProofSizes {
    private final Map<String, Long> totals = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> perTable = new LinkedHashMap<>();

    /** No part counted yet: a reader given it fills it. */
    public ProofSizes() {}

    void add(String table, String part, long bytes) {
        totals.merge(part, bytes, Long::sum);
        if (table != null) {
            perTable.computeIfAbsent(table, t -> new LinkedHashMap<>()).merge(part, bytes, Long::sum);
        }
    }

    /**
     * {@return the bytes of each part over the whole proof, in the order the parts are written ("header"
     * first); a live view, filled while a proof is written or read}
     */
    public Map<String, Long> totals() {
        return totals;
    }

    /**
     * {@return per table name (in the proof's table order), the bytes of each of its own parts (its
     * out-of-domain values, preprocessed opening and phase values, each also counted in the part's total);
     * parts of no one table (the header, the roots, the siblings, FRI) are only in {@link #totals()}}
     */
    public Map<String, Map<String, Long>> perTable() {
        return perTable;
    }

    /**
     * The byte offset at which {@code part} begins: every part is written in one piece (a per-table part for
     * all tables in a row), in the order of {@link #totals()}.
     *
     * @param part a part's name, a key of {@link #totals()}
     * @return its first byte's offset from the start of the proof
     * @throws IllegalArgumentException when no such part was counted (naming the parts that were)
     */
    public long offsetOf(String part) {
        long offset = 0;
        for (Map.Entry<String, Long> e : totals.entrySet()) {
            if (e.getKey().equals(part)) {
                return offset;
            }
            offset += e.getValue();
        }
        throw new IllegalArgumentException("no part '" + part + "' in " + totals.keySet());
    }
}
