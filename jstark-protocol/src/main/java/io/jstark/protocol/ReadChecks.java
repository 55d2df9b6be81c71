package io.jstark.protocol;

import java.util.List;

/**
 * What a {@link ProofFormat} reader checks while it reads, so that it stops at the first byte no accepted proof
 * could have. A check that fails throws the typed rejection it wants the caller to see.
 */
public interface ReadChecks {
    /**
     * {@return the most bytes an accepted proof can have, before anything is read: longer inputs are
     * refused unread (TOO_LARGE)}
     */
    long maxBytes();

    /**
     * Checks the options, right after they are read (13 bytes in).
     *
     * @param options the options the proof claims, already within {@link ProofOptions}' ranges
     * @throws ProofRejectedException when no accepted proof has these options (the reader rethrows it)
     */
    void checkOptions(ProofOptions options) throws ProofRejectedException;

    /**
     * Checks the table headers, right after they are read, before any section.
     *
     * @param options the options, as {@link #checkOptions} passed them
     * @param tables the table headers the proof claims, in its order (names and heights already within
     *     the format's rules)
     * @return the most bytes an accepted proof with these tables can have: the reader refuses to read past it
     * @throws ProofRejectedException when no accepted proof has these tables (the reader rethrows it)
     */
    long checkTables(ProofOptions options, List<Proof.TableHeader> tables) throws ProofRejectedException;
}
