package io.jstark.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The options reach fewer conjectured bits than required. The message and {@link #remedies()} say what
 * would reach them: each remedy is the whole set of options after one change, every value within its
 * option's range, and {@link Security#require} accepts it for the same statement.
 */
public final class InsufficientSecurityException extends IllegalArgumentException {
    /** The conjectured bits the options reach. */
    private final int bits;
    /** The bits they require. */
    private final int required;
    /** The ways out. */
    private final List<Remedy> remedies;

    /**
     * One way out: the advice as the message says it, and the options it leads to.
     *
     * @param advice the change, naming the command-line option (e.g. "raise --queries to 34")
     * @param options the options after the change
     */
    public record Remedy(String advice, ProofOptions options) {}

    /**
     * A refusal whose message lists every remedy's advice.
     *
     * @param bits the conjectured bits the options reach
     * @param required the bits they require
     * @param limitedBy the term that limits them, as {@link Security.Report#limitingTerm()} names it
     * @param remedies the ways out, each within its options' ranges
     */
    public InsufficientSecurityException(int bits, int required, String limitedBy, List<Remedy> remedies) {
        super("options give " + bits + " conjectured bits of security, " + required + " required (limited by "
                + limitedBy + "): " + advice(remedies));
        this.bits = bits;
        this.required = required;
        this.remedies = List.copyOf(remedies);
    }

    private static String advice(List<Remedy> remedies) {
        List<String> each = new ArrayList<>(remedies.size());
        for (Remedy r : remedies) {
            each.add(r.advice());
        }
        return String.join(", or ", each);
    }

    /** {@return the conjectured bits the options reach} */
    public int bits() {
        return bits;
    }

    /** {@return the bits the options require} */
    public int required() {
        return required;
    }

    /** {@return the options changes that reach the required bits (or, where none can, lower the requirement)} */
    public List<Remedy> remedies() {
        return remedies;
    }
}
