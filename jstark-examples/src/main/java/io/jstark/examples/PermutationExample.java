package io.jstark.examples;

/**
 * An example that proves permutations of a hash function: besides its log size, it can be sized by a count
 * of permutations (what {@code jstark prove --hashes N} asks for).
 */
public interface PermutationExample extends Example {
    /**
     * {@return this example proving exactly {@code count} permutations: its one log size is the fewest rows that hold them}
     *
     * @param count the permutations, 1 or more
     * @throws IllegalArgumentException when the count is below 1 or needs more rows than the example allows
     */
    PermutationExample forPermutations(int count);

    /**
     * {@return how many permutations a workload of this log size proves}
     *
     * @param logSize the log size
     * @throws IllegalArgumentException when logSize lies outside [minLogSize, maxLogSize]
     */
    int permutations(int logSize);
}
