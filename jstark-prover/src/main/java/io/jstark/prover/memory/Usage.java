package io.jstark.prover.memory;

/**
 * Peak memory of a piece of work (one table's part of one pass), counted from what it allocates
 * itself, split by where the bytes live.
 *
 * @param ramOffHeap most off-heap RAM bytes live at once
 * @param heap most heap scratch live at once (arrays the work allocates and drops; not garbage, not caches)
 * @param ram most RAM live at once: off-heap RAM plus heap scratch at the same moment (at most
 *     {@code ramOffHeap + heap}); what a memory gate should admit
 * @param spill most bytes live at once in spill files
 */
public record Usage(long ramOffHeap, long heap, long ram, long spill) {
    /** No memory at all: the identity of {@link #max}. */
    public static final Usage NONE = new Usage(0, 0, 0, 0);

    /**
     * Each figure's larger value (the peak of several pieces of work that run one after the other).
     *
     * @param other the other piece of work's usage
     * @return per figure, the larger of the two
     */
    public Usage max(Usage other) {
        return new Usage(
                Math.max(ramOffHeap, other.ramOffHeap),
                Math.max(heap, other.heap),
                Math.max(ram, other.ram),
                Math.max(spill, other.spill));
    }
}
