package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.expr.Expr;
import io.jstark.air.expr.PointEvaluator;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.merkle.InvalidMerkleProofException;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriException;
import io.jstark.fri.FriFolding;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriProver;
import io.jstark.fri.FriVerifier;
import io.jstark.instrument.Span;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.Ntt;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.Limbs;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.Security;
import io.jstark.protocol.VerifyingKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Verifies jstark proofs. Every byte of a proof is treated as hostile: any malformed, tampered or
 * mismatched proof ends in a {@link ProofRejectedException} saying what failed — never an unchecked
 * exception, never acceptance.
 *
 * <p>Checks, per table (on its forked transcript): the statement matches the key (table definitions by
 * digest, heights, public inputs, pinned preprocessed roots); the composition polynomial's parts agree
 * with the constraints at the out-of-domain point; FRI proves the DEEP composition low-degree, with its
 * layer-0 values recomputed from Merkle-checked openings of every committed tree; the grinding nonce is
 * valid. Across tables: the bus contributions sum to zero.
 */
public final class StarkVerifier {
    private StarkVerifier() {}

    /**
     * Parses and verifies {@code proofBytes} against {@code key}.
     *
     * @return the statement the proof proves (tables, heights, public inputs): compare it with the claim
     *     you expect, the prover chose it
     */
    public static VerifiedStatement verify(VerifyingKey key, byte[] proofBytes) throws ProofRejectedException {
        try (Span _ = Spans.open("verify", "bytes", proofBytes.length)) {
            return guarded(() -> new Run(key, ProofFormat.read(proofBytes)).verify());
        }
    }

    /** Verifies an already parsed proof. */
    public static VerifiedStatement verify(VerifyingKey key, Proof proof) throws ProofRejectedException {
        try (Span _ = Spans.open("verify")) {
            return guarded(() -> new Run(key, proof).verify());
        }
    }

    private interface Check {
        VerifiedStatement run() throws ProofRejectedException;
    }

    private static VerifiedStatement guarded(Check check) throws ProofRejectedException {
        try {
            return check.run();
        } catch (ProofRejectedException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // A hostile proof must never surface as an unchecked exception.
            throw new ProofRejectedException(Reason.MALFORMED, null, "inconsistent proof: " + e, e);
        }
    }

    /** One verification. */
    private static final class Run {
        private final VerifyingKey key;
        private final Proof proof;
        private final ProofOptions options;
        private final Hasher hasher;
        private final List<Air> airs = new ArrayList<>();

        Run(VerifyingKey key, Proof proof) {
            this.key = key;
            this.proof = proof;
            this.options = proof.options();
            this.hasher = Hashers.byName(options.hash());
        }

        VerifiedStatement verify() throws ProofRejectedException {
            // the cheap checks first: a hostile proof must not make the verifier compute pinned commitments
            int logLargestLde = 0;
            for (Proof.TableHeader h : proof.tables()) {
                logLargestLde = Math.max(logLargestLde, h.logHeight() + options.logBlowup());
            }
            int bits = Security.of(options, logLargestLde).conjecturedBits();
            if (bits < options.requiredSecurityBits()) {
                throw new ProofRejectedException(Reason.INSECURE_OPTIONS, null, "proof claims " + options.requiredSecurityBits()
                        + " bits of security but its options give " + bits);
            }
            if (bits < key.minimumSecurityBits()) {
                throw new ProofRejectedException(Reason.INSECURE_OPTIONS, null, "proof options give " + bits
                        + " conjectured bits of security; this verifier requires " + key.minimumSecurityBits());
            }
            List<ProofTranscript.TableStatement> statements = checkStatement();
            Transcript global = ProofTranscript.start(hasher, options, statements);
            Ext3[] lookup = ProofTranscript.absorbMainRootsAndSampleLookupChallenges(global, proof.mainRoots());
            Ext3 balance = Ext3.ZERO;
            for (int i = 0; i < proof.tables().size(); i++) {
                Proof.TableHeader header = proof.tables().get(i);
                try (Span _ = Spans.open("verify_table", "table", header.name())) {
                    new TableCheck(i, header, airs.get(i), proof.tableProofs().get(i), proof.mainRoots().get(i), lookup,
                            ProofTranscript.forTable(global, i)).verify();
                }
                Ext3 busSum = proof.tableProofs().get(i).busSum();
                if (busSum != null) {
                    balance = balance.add(busSum);
                }
            }
            if (!balance.isZero()) {
                throw new ProofRejectedException(Reason.BUS_BALANCE, null,
                        "the tables' bus contributions do not cancel (sum " + balance + "): some tuple was sent that no table received");
            }
            List<VerifiedStatement.Table> tables = new ArrayList<>();
            for (Proof.TableHeader h : proof.tables()) {
                tables.add(new VerifiedStatement.Table(h.name(), h.airName(), h.logHeight(), h.publicInputs()));
            }
            return new VerifiedStatement(options, bits, tables);
        }

        private List<ProofTranscript.TableStatement> checkStatement() throws ProofRejectedException {
            if (proof.mainRoots().size() != proof.tables().size() || proof.tableProofs().size() != proof.tables().size()) {
                throw new ProofRejectedException(Reason.MALFORMED, null, "table, root and section counts differ");
            }
            List<ProofTranscript.TableStatement> statements = new ArrayList<>();
            java.util.Set<String> names = new java.util.HashSet<>();
            for (Proof.TableHeader h : proof.tables()) {
                if (!names.add(h.name())) {
                    throw new ProofRejectedException(Reason.STATEMENT, h.name(), "two tables have this name");
                }
            }
            for (Proof.TableHeader h : proof.tables()) {
                Air air = key.air(h.airName());
                if (air == null) {
                    throw new ProofRejectedException(Reason.STATEMENT, h.name(), "table definition '" + h.airName()
                            + "' is not in the verifying key");
                }
                if (air.fixedLogHeight() >= 0 && h.logHeight() != air.fixedLogHeight()) {
                    throw new ProofRejectedException(Reason.STATEMENT, h.name(), "height 2^" + h.logHeight() + ", but '" + air.name()
                            + "' has the fixed height 2^" + air.fixedLogHeight());
                }
                if (h.publicInputs().length != air.publicInputs().size()) {
                    throw new ProofRejectedException(Reason.STATEMENT, h.name(), h.publicInputs().length + " public inputs, '"
                            + air.name() + "' declares " + air.publicInputs().size());
                }
                if (h.logHeight() + options.logBlowup() < options.logFoldingFactor()) {
                    throw new ProofRejectedException(Reason.STATEMENT, h.name(), "LDE smaller than one FRI coset");
                }
                if (air.compositionParts(h.logHeight()) > options.blowup()) {
                    throw new ProofRejectedException(Reason.STATEMENT, h.name(), "constraint degree needs a blowup of at least "
                            + air.compositionParts(h.logHeight()));
                }
                airs.add(air);
            }
            for (int i = 0; i < proof.tables().size(); i++) {
                Proof.TableHeader h = proof.tables().get(i);
                Air air = airs.get(i);
                byte[] pinned = air.preprocessedWidth() == 0 ? null : key.preprocessedRoot(air, options);
                if ((pinned == null) != (h.preprocessedRoot() == null)) {
                    throw new ProofRejectedException(Reason.PREPROCESSED_COMMITMENT, h.name(), pinned == null
                            ? "the proof commits preprocessed columns the table does not have"
                            : "the proof lacks the commitment to the table's preprocessed columns");
                }
                if (pinned != null && !Arrays.equals(pinned, h.preprocessedRoot())) {
                    throw new ProofRejectedException(Reason.PREPROCESSED_COMMITMENT, h.name(),
                            "the preprocessed commitment differs from the one pinned in the verifying key");
                }
                statements.add(new ProofTranscript.TableStatement(h.name(), h.airName(), key.digest(air.name()), h.logHeight(), h.publicInputs(), pinned));
            }
            return statements;
        }

        /** The checks of one table. */
        private final class TableCheck {
            private final Proof.TableHeader header;
            private final String name;
            private final Air air;
            private final Proof.TableProof tp;
            private final byte[] mainRoot;
            private final Ext3[] lookup;
            private final Transcript t;
            private final int logN;
            private final int logLde;
            private final int logF;

            TableCheck(int index, Proof.TableHeader header, Air air, Proof.TableProof tp, byte[] mainRoot, Ext3[] lookup, Transcript t) {
                this.header = header;
                this.name = header.name();
                this.air = air;
                this.tp = tp;
                this.mainRoot = mainRoot;
                this.lookup = lookup;
                this.t = t;
                this.logN = header.logHeight();
                this.logLde = logN + options.logBlowup();
                this.logF = options.logFoldingFactor();
            }

            void verify() throws ProofRejectedException {
                boolean hasAux = air.auxWidth() > 0;
                if (hasAux != (tp.auxRoot() != null) || hasAux != (tp.aux() != null)) {
                    throw reject(Reason.MALFORMED, hasAux ? "aux commitment missing" : "unexpected aux commitment");
                }
                if ((header.preprocessedRoot() != null) != (tp.preprocessed() != null)) {
                    throw reject(Reason.MALFORMED, "preprocessed openings do not match the statement");
                }
                if (hasAux) {
                    ProofTranscript.absorbAux(t, tp.auxRoot(), tp.busSum());
                }
                Ext3 alpha = ProofTranscript.sampleCompositionChallenge(t);
                ProofTranscript.absorbCompositionRoot(t, tp.compositionRoot());
                Ext3 z = ProofTranscript.sampleOodPoint(t, logN, logLde, Preprocessing.SHIFT);
                OodFrame frame = tp.ood();
                int parts = air.compositionParts(logN);
                checkFrameShape(frame, parts);
                ProofTranscript.absorbOodFrame(t, frame);
                CompositionLayout layout = CompositionLayout.of(air, logN);
                checkOutOfDomain(layout, alpha, z, frame, parts);
                Ext3 gamma = ProofTranscript.sampleDeepChallenge(t);
                FriParameters fri = new FriParameters(logF, options.logFinalDegree());
                Ext3[] betas;
                try {
                    betas = FriVerifier.replayCommitPhase(tp.fri(), fri, logN, t);
                } catch (FriException e) {
                    throw reject(Reason.FRI, e.getMessage());
                }
                if (!t.verifyGrinding(options.grindingBits(), tp.powNonce())) {
                    throw reject(Reason.GRINDING, "the proof-of-work nonce does not have " + options.grindingBits() + " leading zero bits");
                }
                int[] queries = ProofTranscript.sampleQueries(t, options.queries(), logLde - logF);
                int[] cosets = FriProver.distinctSorted(queries);
                long[][] pre = checkOpening("preprocessed", header.preprocessedRoot(), tp.preprocessed(), cosets, air.preprocessedWidth());
                long[][] main = checkOpening("main", mainRoot, tp.main(), cosets, air.mainWidth());
                long[][] aux = checkOpening("aux", tp.auxRoot(), tp.aux(), cosets, 3 * air.auxWidth());
                long[][] comp = checkOpening("composition", tp.compositionRoot(), tp.composition(), cosets, 3 * parts);
                DeepComposition deep = new DeepComposition(frame, gamma, z, Goldilocks.twoAdicGenerator(logN));
                int f = 1 << logF;
                int traceWidth = air.preprocessedWidth() + air.mainWidth() + 3 * air.auxWidth();
                Ext3[][] cosetValues = new Ext3[queries.length][];
                for (int q = 0; q < queries.length; q++) {
                    int leaf = Arrays.binarySearch(cosets, queries[q]);
                    Ext3[] values = new Ext3[f];
                    for (int r = 0; r < f; r++) {
                        long[] traceRow = new long[traceWidth];
                        int k = 0;
                        k = copyRow(pre, leaf, r, air.preprocessedWidth(), traceRow, k);
                        k = copyRow(main, leaf, r, air.mainWidth(), traceRow, k);
                        copyRow(aux, leaf, r, 3 * air.auxWidth(), traceRow, k);
                        long[] compRow = new long[3 * parts];
                        copyRow(comp, leaf, r, 3 * parts, compRow, 0);
                        long x = FriFolding.domainPoint(Preprocessing.SHIFT, logLde, queries[q] * f + r);
                        values[r] = deep.evaluate(x, traceRow, compRow);
                    }
                    cosetValues[q] = values;
                }
                try {
                    FriVerifier.verifyQueries(queries, cosetValues, tp.fri(), betas, fri, logN, logLde, Preprocessing.SHIFT, hasher);
                } catch (FriException e) {
                    throw reject(Reason.FRI, e.getMessage());
                }
            }

            private int copyRow(long[][] leaves, int leaf, int row, int width, long[] out, int offset) {
                if (width == 0) {
                    return offset;
                }
                System.arraycopy(leaves[leaf], row * width, out, offset, width);
                return offset + width;
            }

            private void checkFrameShape(OodFrame f, int parts) throws ProofRejectedException {
                int pre = air.preprocessedWidth();
                int main = air.mainWidth();
                int aux = 3 * air.auxWidth();
                if (f.preprocessedAtZ().length != pre || f.preprocessedAtZNext().length != pre || f.mainAtZ().length != main
                        || f.mainAtZNext().length != main || f.auxAtZ().length != aux || f.auxAtZNext().length != aux
                        || f.compositionAtZ().length != 3 * parts) {
                    throw reject(Reason.MALFORMED, "out-of-domain frame has the wrong shape");
                }
            }

            /** C(z) from the constraints must equal sum_j z^(j n) H_j(z) from the opened parts. */
            private void checkOutOfDomain(CompositionLayout layout, Ext3 alpha, Ext3 z, OodFrame f, int parts)
                    throws ProofRejectedException {
                Ext3[] coefficients = layout.coefficients(alpha);
                Ext3[] periodic = periodicValuesAt(z);
                long[] publicInputs = header.publicInputs();
                PointEvaluator evaluator = new PointEvaluator(leaf -> switch (leaf) {
                    case Expr.Const c -> Ext3.of(c.value());
                    case Expr.MainCell c -> (c.rowOffset() == 0 ? f.mainAtZ() : f.mainAtZNext())[c.column()];
                    case Expr.PreprocessedCell c -> (c.rowOffset() == 0 ? f.preprocessedAtZ() : f.preprocessedAtZNext())[c.column()];
                    case Expr.AuxCell c -> Limbs.combine(c.rowOffset() == 0 ? f.auxAtZ() : f.auxAtZNext(), 3 * c.column());
                    case Expr.Periodic p -> periodic[p.index()];
                    case Expr.PublicInput p -> Ext3.of(publicInputs[p.index()]);
                    case Expr.Challenge c -> lookup[c.index()];
                    case Expr.BusSum b -> tp.busSum();
                    case Expr.Coefficient c -> coefficients[c.index()];
                    case Expr.Divisor d -> layout.divisorInverseAt(layout.groups().get(d.group()), z);
                });
                Ext3 expected = evaluator.evaluate(layout.expression());
                Ext3 zToN = z.pow(1L << logN);
                Ext3 actual = Ext3.ZERO;
                Ext3 power = Ext3.ONE;
                for (int j = 0; j < parts; j++) {
                    actual = actual.add(power.mul(Limbs.combine(f.compositionAtZ(), 3 * j)));
                    power = power.mul(zToN);
                }
                if (!expected.equals(actual)) {
                    throw reject(Reason.OUT_OF_DOMAIN, "the composition polynomial does not match the constraints at the out-of-domain point");
                }
            }

            /** Each periodic column's polynomial Q(x^(n/m)) at z, from Q's coefficients (m values). */
            private Ext3[] periodicValuesAt(Ext3 z) {
                List<PeriodicColumn> columns = air.periodicColumns();
                Ext3[] out = new Ext3[columns.size()];
                for (int i = 0; i < out.length; i++) {
                    long[] values = columns.get(i).values();
                    int logM = Integer.numberOfTrailingZeros(values.length);
                    if (logM > logN) {
                        throw new IllegalStateException("periodic column '" + columns.get(i).name() + "' has a period longer than the table");
                    }
                    Ntt.inverseNaturalToNatural(values, 0, logM);
                    Ext3 point = z.pow(1L << (logN - logM));
                    Ext3 acc = Ext3.ZERO;
                    for (int k = values.length - 1; k >= 0; k--) {
                        acc = acc.mul(point).add(values[k]);
                    }
                    out[i] = acc;
                }
                return out;
            }

            /** Checks a tree's openings at the cosets and returns the leaves (rows x width elements each). */
            private long[][] checkOpening(String tree, byte[] root, Proof.TreeOpening opening, int[] cosets, int width)
                    throws ProofRejectedException {
                if (root == null || width == 0) {
                    return null;
                }
                int f = 1 << logF;
                long[][] leaves = opening.leafValues();
                if (leaves.length != cosets.length) {
                    throw reject(Reason.MALFORMED, tree + " opening has " + leaves.length + " leaves, " + cosets.length + " expected");
                }
                byte[][] hashes = new byte[leaves.length][];
                for (int l = 0; l < leaves.length; l++) {
                    if (leaves[l].length != f * width) {
                        throw reject(Reason.MALFORMED, tree + " leaf " + l + " holds " + leaves[l].length + " elements, " + f * width + " expected");
                    }
                    hashes[l] = MerkleVerifier.hashLeaf(hasher, leaves[l]);
                }
                try {
                    MerkleVerifier.checkBatch(hasher, root, 1 << (logLde - logF), cosets, hashes, opening.siblings());
                } catch (InvalidMerkleProofException e) {
                    throw reject(Reason.MERKLE, tree + " opening rejected: " + e.getMessage());
                }
                return leaves;
            }

            private ProofRejectedException reject(Reason reason, String message) {
                return new ProofRejectedException(reason, name, message);
            }
        }
    }

    /** Convenience: true when the proof verifies. */
    public static boolean isValid(VerifyingKey key, byte[] proofBytes) {
        try {
            verify(key, proofBytes);
            return true;
        } catch (ProofRejectedException e) {
            return false;
        }
    }

}
