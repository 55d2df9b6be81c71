package io.jstark.prover;

import io.jstark.air.trace.TableTrace;
import io.jstark.crypto.hash.Hasher;
import io.jstark.protocol.LiftedDomain;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.ProofOptions;
import java.util.List;

/**
 * What a backend needs to begin a proof ({@link ProverBackend#open}).
 *
 * @param tables the tables in the proof's order, as the transcript absorbs them
 * @param traces their traces, owned by the caller (read only); empty where the backend owns them
 *     ({@link TableOwningBackend})
 * @param preprocessed per table its preprocessed commitment from the proving key, null without preprocessed
 *     columns (public, computed once per key)
 * @param memory what {@link ProverBackend#describe} said the backend holds for these tables
 * @param domain the lifted domain of the tables' heights
 * @param options the proof's options
 * @param hasher the proof's hash
 * @param settings how to run: the worker pool, the table executor, the storage policy, debug checks, progress
 * @param randomness the proof's random values when its options ask for zero knowledge, else null
 */
public record ProofContext(
        List<ClaimedTable> tables,
        List<TableTrace> traces,
        List<Preprocessing.Committed> preprocessed,
        BackendMemory memory,
        LiftedDomain domain,
        ProofOptions options,
        Hasher hasher,
        ProverSettings settings,
        ZkRandomness randomness) {
    /**
     * A context of these traces.
     *
     * @param traces the tables in the proof's order, owned by the caller (read only)
     * @param preprocessed per table its preprocessed commitment from the proving key, null without preprocessed columns
     * @param memory what {@link ProverBackend#describe} said the backend holds for these tables
     * @param domain the lifted domain of the tables' heights
     * @param options the proof's options
     * @param hasher the proof's hash
     * @param settings how to run
     * @param randomness the proof's random values when its options ask for zero knowledge, else null
     */
    public ProofContext(
            List<TableTrace> traces,
            List<Preprocessing.Committed> preprocessed,
            BackendMemory memory,
            LiftedDomain domain,
            ProofOptions options,
            Hasher hasher,
            ProverSettings settings,
            ZkRandomness randomness) {
        this(ClaimedTable.of(traces), traces, preprocessed, memory, domain, options, hasher, settings, randomness);
    }

    /**
     * {@return this context with other claims of the same tables (the ones a table-owning backend reported)}
     *
     * @param claimed the tables' claims, in the proof's order
     */
    ProofContext withTables(List<ClaimedTable> claimed) {
        return new ProofContext(
                List.copyOf(claimed), traces, preprocessed, memory, domain, options, hasher, settings, randomness);
    }

    /**
     * A context of a proof without zero knowledge.
     *
     * @param traces the tables in the proof's order, owned by the caller (read only)
     * @param preprocessed per table its preprocessed commitment from the proving key, null without preprocessed columns
     * @param memory what {@link ProverBackend#describe} said the backend holds for these tables
     * @param domain the lifted domain of the tables' heights
     * @param options the proof's options
     * @param hasher the proof's hash
     * @param settings how to run
     */
    public ProofContext(
            List<TableTrace> traces,
            List<Preprocessing.Committed> preprocessed,
            BackendMemory memory,
            LiftedDomain domain,
            ProofOptions options,
            Hasher hasher,
            ProverSettings settings) {
        this(traces, preprocessed, memory, domain, options, hasher, settings, null);
    }
}
