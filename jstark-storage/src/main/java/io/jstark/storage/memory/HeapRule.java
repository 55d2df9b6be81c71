package io.jstark.storage.memory;

import java.util.Locale;
import java.util.Optional;

/**
 * How the launcher sized this JVM's fixed heap from the memory budget: a share of the budget, at least a floor,
 * in whole MiB. {@code scripts/heap.sh} holds the rule and passes it to the JVM it starts
 * ({@value #SHARE_PROPERTY} and {@value #FLOOR_PROPERTY}), so that a refusal can name the smallest budget that
 * works where a larger budget also brings a larger heap; without them (a JVM started some other way) a larger
 * budget leaves the heap as it is.
 *
 * @param numerator the share's numerator (3 of 3/8)
 * @param denominator the share's denominator (8 of 3/8), greater than the numerator
 * @param floorMiB the smallest heap, in MiB
 */
public record HeapRule(int numerator, int denominator, long floorMiB) {
    /** The system property with the share, as {@code numerator/denominator} ("3/8"). */
    public static final String SHARE_PROPERTY = "jstark.heap.share";
    /** The system property with the floor, in MiB ("64"). */
    public static final String FLOOR_PROPERTY = "jstark.heap.floor-mib";

    /**
     * Checks the rule.
     *
     * @throws IllegalArgumentException for a share outside (0, 1) or a negative floor
     */
    public HeapRule {
        if (numerator <= 0 || denominator <= numerator || floorMiB < 0) {
            throw new IllegalArgumentException("heap rule: share " + numerator + "/" + denominator
                    + " must lie in (0, 1), floor " + floorMiB + " MiB must not be negative");
        }
    }

    /**
     * The heap the launcher gives a budget, computed as {@code scripts/heap.sh} computes it (the budget divided
     * by the denominator, times the numerator, in whole MiB, at least the floor).
     *
     * @param budgetBytes the memory budget, in bytes
     * @return the heap (-Xms = -Xmx), in bytes
     */
    public long heapBytes(long budgetBytes) {
        long mib = budgetBytes / denominator * numerator / (1L << 20);
        return Math.max(floorMiB, mib) << 20;
    }

    /**
     * The rule this JVM was started with, from {@value #SHARE_PROPERTY} and {@value #FLOOR_PROPERTY}.
     *
     * @return the rule, or empty when the launcher passed none (or a malformed one)
     */
    public static Optional<HeapRule> fromSystemProperties() {
        String share = System.getProperty(SHARE_PROPERTY);
        String floor = System.getProperty(FLOOR_PROPERTY, "0");
        if (share == null) {
            return Optional.empty();
        }
        int slash = share.indexOf('/');
        try {
            return Optional.of(new HeapRule(
                    Integer.parseInt(share.substring(0, Math.max(0, slash)).trim()),
                    Integer.parseInt(share.substring(slash + 1).trim()),
                    Long.parseLong(floor.trim())));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /**
     * The rule as text: "3/8 of the budget, at least 64 MiB".
     *
     * @return one phrase
     */
    public String describe() {
        return String.format(Locale.ROOT, "%d/%d of the budget, at least %d MiB", numerator, denominator, floorMiB);
    }
}
