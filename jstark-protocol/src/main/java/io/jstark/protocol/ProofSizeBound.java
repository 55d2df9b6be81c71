package io.jstark.protocol;

import io.jstark.air.Air;
import io.jstark.math.field.Ext3;
import java.util.ArrayList;
import java.util.List;

/**
 * The most bytes a proof can have ({@link ProofFormat#maxBytes}): the layout of the format with every count at the
 * most a valid proof can hold. Arithmetic only, linear in the tables and their heights.
 */
final class ProofSizeBound {
    private static final int DIGEST = ProofFormat.DIGEST;

    private ProofSizeBound() {}

    /**
     * The most bytes a proof of these tables can have under {@code options}: every count at its
     * most, with the lifted domain at the tallest height any table may have (a taller domain never opens
     * fewer siblings or FRI layers) and each table opening at most min(queries * f, rows) rows per phase.
     */
    static long maxBytes(ProofOptions o, List<ProofFormat.TableLayout> tables) {
        int logMaxHeight = 0;
        for (ProofFormat.TableLayout t : tables) {
            logMaxHeight = Math.max(logMaxHeight, ZeroKnowledge.committedLogHeight(o, t.maxLogHeight()));
        }
        long total = sharedMaxBytes(o, logMaxHeight);
        for (ProofFormat.TableLayout t : tables) {
            total += tableMaxBytes(o, t.name(), t.definition(), t.minLogHeight(), t.maxLogHeight());
        }
        return total;
    }

    /** The largest {@link #maxBytes(ProofOptions, List)} over the option sets {@code accepted} admits, at most the format's. */
    static long maxBytes(AcceptedOptions accepted, List<ProofFormat.TableLayout> tables) {
        long most = 0;
        for (ProofOptions o : sizeCandidates(accepted)) {
            most = Math.max(most, maxBytes(o, tables));
        }
        return Math.min(most, ProofFormat.MAX_PROOF_BYTES);
    }

    /**
     * The most bytes of a proof of at most {@code maxTables} tables, each of any of {@code definitions}, any name and
     * at most 2^maxLogHeight rows, under any option set {@code accepted} admits: the parts of no one table at the
     * tallest height, plus every table at the most any definition at any height can hold (a sum of per-table parts
     * is at most their count times the largest).
     */
    static long maxBytes(AcceptedOptions accepted, List<Air> definitions, int maxTables, int maxLogHeight) {
        if (maxTables < 1
                || maxTables > ProofFormat.MAX_TABLES
                || NameAndHeightRules.heightViolation(1, maxLogHeight).isPresent()
                || definitions.isEmpty()) {
            throw new IllegalArgumentException(
                    "no proof bound for " + maxTables + " tables of at most 2^" + maxLogHeight + " rows of "
                            + definitions.size() + " definitions (1.." + ProofFormat.MAX_TABLES + " tables, 2^1..2^"
                            + ProofFormat.MAX_LOG_HEIGHT
                            + " rows)");
        }
        String longestName = "n".repeat(ProofFormat.MAX_NAME_BYTES);
        long most = 0;
        for (ProofOptions o : sizeCandidates(accepted)) {
            long widest = 0;
            for (Air air : definitions) {
                widest = Math.max(widest, tableMaxBytes(o, longestName, air, 1, maxLogHeight));
            }
            most = Math.max(
                    most, sharedMaxBytes(o, ZeroKnowledge.committedLogHeight(o, maxLogHeight)) + maxTables * widest);
        }
        return Math.min(most, ProofFormat.MAX_PROOF_BYTES);
    }

    /**
     * The option sets whose largest proof bounds every proof {@code accepted} admits: exactly its sets, or for
     * "any options" every shape of a proof (blowup, folding factor, final degree) at the most queries with zero
     * knowledge at the most required bits (a proof without it holds fewer bytes); grinding and the hash change no count
     * of {@link #maxBytes(ProofOptions, List)}.
     */
    private static List<ProofOptions> sizeCandidates(AcceptedOptions accepted) {
        if (accepted.isExact()) {
            return accepted.exactly();
        }
        List<ProofOptions> candidates = new ArrayList<>();
        for (int logBlowup = ProofOptions.MIN_LOG_BLOWUP; logBlowup <= ProofOptions.MAX_LOG_BLOWUP; logBlowup++) {
            for (int logFolding = 1; logFolding <= ProofOptions.MAX_LOG_FOLDING_FACTOR; logFolding++) {
                for (int logFinal = 0; logFinal <= ProofOptions.MAX_LOG_FINAL_DEGREE; logFinal++) {
                    // zero knowledge at the most required bits: the most salt
                    candidates.add(new ProofOptions(
                            logBlowup,
                            ProofOptions.MAX_QUERIES,
                            0,
                            logFolding,
                            logFinal,
                            accepted.hashes().getFirst(),
                            Security.EXTENSION_FIELD_BITS,
                            true));
                }
            }
        }
        return candidates;
    }

    /**
     * The parts of no one table: the prefix, the roots, FRI, the phase openings' siblings, with zero knowledge the random
     * codeword's opened values ({@code logMaxHeight} the tallest committed height).
     */
    private static long sharedMaxBytes(ProofOptions o, int logMaxHeight) {
        int f = o.foldingFactor();
        SectionShape top = SectionShape.of(o, logMaxHeight);
        long phaseSiblings = 4 + (long) DIGEST * top.maxSiblings(top.logCosets());
        long total = ProofFormat.PREFIX_BYTES;
        total += DIGEST + 1 + DIGEST + DIGEST;
        total += 1 + (long) DIGEST * top.committedLayers() + 2 + (long) Ext3.BYTES * top.finalCoefficients() + 8;
        for (int layer = 1; layer <= top.committedLayers(); layer++) {
            total += top.maxOpeningBytes(top.logFriLeaves(layer), 3L * f);
        }
        if (o.zeroKnowledge()) {
            total += 3L * 8 * Math.min((long) o.queries() * f, 1L << (logMaxHeight + o.logBlowup()));
        }
        return total + 2 + phaseSiblings + 1 + 2 + phaseSiblings + 2 + phaseSiblings;
    }

    private static long tableMaxBytes(ProofOptions o, String name, Air air, int minLogHeight, int maxLogHeight) {
        long most = 0;
        for (int logHeight = minLogHeight; logHeight <= maxLogHeight; logHeight++) {
            most = Math.max(most, maxTableBytes(o, name, air, logHeight));
        }
        return most;
    }

    private static long maxTableBytes(ProofOptions o, String name, Air air, int logHeight) {
        int f = o.foldingFactor();
        int logCommitted = ZeroKnowledge.committedLogHeight(o, logHeight);
        SectionShape own = SectionShape.of(o, logCommitted);
        // a table opens at most one block of at most f rows per query, and no more rows than it has
        long rows = Math.min((long) o.queries() * f, 1L << (logCommitted + o.logBlowup()));
        // a row's salt columns are at most the salt elements of a leaf (ZeroKnowledge.saltColumns), in each of three
        // phases
        long phaseWidths = ZeroKnowledge.committedAir(o, air).mainWidth()
                + 3L * air.auxWidth()
                + 3L * ZeroKnowledge.compositionParts(o, air, logHeight)
                + 3L * ZeroKnowledge.saltElements(o);
        long bytes = headerEntryBytes(name, air) + 1 + Ext3.BYTES + frameBytes(o, air, logHeight);
        bytes += 1
                + (air.preprocessedWidth() > 0
                        ? own.maxOpeningBytes(own.logCosets(), (long) f * air.preprocessedWidth())
                        : 0);
        return bytes + 3 * 8 + 8L * rows * phaseWidths;
    }

    /** A table's entry in the header. */
    private static long headerEntryBytes(String name, Air air) {
        return 2
                + NameAndHeightRules.utf8(name).length
                + 2
                + NameAndHeightRules.utf8(air.name()).length
                + 1
                + 2
                + 8L * air.publicInputs().size()
                + 1
                + (air.preprocessedWidth() > 0 ? DIGEST : 0);
    }

    /** A table's out-of-domain frame as the body writes it: 7 counts and the extension values of {@link OodFrame}. */
    private static long frameBytes(ProofOptions o, Air air, int logHeight) {
        long values = 2L
                        * (air.preprocessedWidth()
                                + ZeroKnowledge.committedAir(o, air).mainWidth()
                                + 3L * air.auxWidth())
                + 3L * ZeroKnowledge.compositionParts(o, air, logHeight);
        return 7 * 2 + Ext3.BYTES * values;
    }
}
