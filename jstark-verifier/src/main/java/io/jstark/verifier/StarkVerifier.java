package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.air.PeriodicColumn;
import io.jstark.air.expr.Expr;
import io.jstark.air.expr.PointEvaluator;
import io.jstark.crypto.hash.Hasher;
import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.merkle.InvalidMerkleProofException;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.crypto.merkle.MerkleVerifier;
import io.jstark.crypto.transcript.Transcript;
import io.jstark.fri.FriException;
import io.jstark.fri.FriParameters;
import io.jstark.fri.FriVerifier;
import io.jstark.instrument.Span;
import io.jstark.instrument.SpanLabels;
import io.jstark.instrument.Spans;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.math.ntt.BitReversedCoset;
import io.jstark.protocol.CompositionLayout;
import io.jstark.protocol.DeepComposition;
import io.jstark.protocol.Limbs;
import io.jstark.protocol.BatchedProof;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.ParsedProof;
import io.jstark.protocol.Preprocessing;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Verifies jstark proofs. Every byte of a proof is treated as hostile: any malformed, tampered or
 * mismatched proof ends in a {@link ProofRejectedException} saying what failed — never an unchecked
 * exception, never acceptance.
 *
 * <p>{@link #verify(VerifyingKey, Statement, byte[]) verify(key, expected, proof)} accepts only a proof of
 * exactly the caller's statement under the options the key accepts. Before reading a byte it knows the
 * largest such proof ({@link #maxProofBytes}) and refuses longer input unread; it refuses options the key
 * does not accept right after reading them, and a statement other than the expected one right after the
 * table headers, all before any cryptographic work; it never computes a preprocessed commitment (the key
 * pins them). {@link #verifyAndDescribe} checks a proof against the key alone and returns what it proves:
 * a caller who ignores that result has checked only that some statement holds.
 *
 * <p>Checks, per table (on its forked transcript): the composition polynomial's parts agree with the
 * constraints at the out-of-domain point; FRI proves the DEEP composition low-degree, with its layer-0
 * values recomputed from Merkle-checked openings of every committed tree; the grinding nonce is valid.
 * Across tables: the bus contributions sum to zero.
 *
 * <p>What leaves these methods: a {@link ProofRejectedException} for anything the proof's bytes hold (the
 * last-resort guard turns any other failure while reading or checking them, an {@link OutOfMemoryError}
 * included, into one); before a byte is read, an
 * {@link io.jstark.protocol.InvalidStatementException} when the caller's expected statement names a
 * definition the key does not hold (the caller's inconsistency, not the proof's); and an
 * {@link IOException} when a file or stream cannot be read.
 *
 * <p>The grinding nonce: any nonce with the required leading zero bits is accepted, not only the smallest
 * one the prover picks, so one statement has several valid proofs that differ in the nonce (and, through
 * the queries it seeds, in the openings). The prover can always make them; anyone else can where the
 * queries a new nonce draws open only leaves the proof already holds (a tiny table whose every query set
 * opens every leaf), and otherwise not, since the proof lacks the other openings. Checking that no smaller
 * nonce is valid would cost the verifier the prover's grinding work again (about 2^grinding hashes per
 * table); the statement, which is what a proof proves, is unaffected. Do not use a proof's bytes as its
 * identity.
 */
public final class StarkVerifier {
    private StarkVerifier() {}

    /**
     * Verifies that {@code proofBytes} proves exactly {@code expected} under {@code key}.
     *
     * @param key the verifying key: the definitions and the option sets accepted
     * @param expected the statement the proof must prove: tables, order, height bounds, public inputs
     * @param proofBytes the whole proof, as {@code JstarkProver.Result.bytes()} wrote it
     * @return the verified statement (the expected one, with the proof's heights and security)
     * @throws ProofRejectedException for any other proof, naming the check and the table
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     */
    public static VerifiedStatement verify(VerifyingKey key, Statement expected, byte[] proofBytes) throws ProofRejectedException {
        Expectation expectation = Expectation.of(key, expected);
        try (Span _ = Spans.open("verify", "bytes", proofBytes.length)) {
            return guarded(() -> run(expectation, ProofFormat.readAny(proofBytes, expectation, null)));
        }
    }

    /**
     * Verifies the proof file {@code file} against {@code expected}: a file longer than the largest proof
     * of that statement is refused by its size, unread; the rest is read as a stream.
     *
     * @param key the verifying key
     * @param expected the statement the proof must prove
     * @param file the proof file
     * @return the verified statement, as {@link #verify(VerifyingKey, Statement, byte[])} returns it
     * @throws ProofRejectedException for any other proof, or one longer than {@link #maxProofBytes} bytes
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     * @throws IOException when the file cannot be read (the environment, not the proof)
     */
    public static VerifiedStatement verify(VerifyingKey key, Statement expected, Path file) throws ProofRejectedException, IOException {
        Expectation expectation = Expectation.of(key, expected);
        try (Span _ = Spans.open("verify")) {
            return guardedIo(() -> run(expectation, ProofFormat.readAny(file, expectation, null)));
        }
    }

    /**
     * Verifies a proof read from {@code in} (at most one buffer past the largest accepted proof is read; the
     * stream is not closed).
     *
     * @param key the verifying key
     * @param expected the statement the proof must prove
     * @param in the proof's bytes, from the first
     * @return the verified statement, as {@link #verify(VerifyingKey, Statement, byte[])} returns it
     * @throws ProofRejectedException for any other proof, or one longer than {@link #maxProofBytes} bytes
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     * @throws IOException when the stream cannot be read
     */
    public static VerifiedStatement verify(VerifyingKey key, Statement expected, InputStream in) throws ProofRejectedException, IOException {
        Expectation expectation = Expectation.of(key, expected);
        try (Span _ = Spans.open("verify")) {
            return guardedIo(() -> run(expectation, ProofFormat.readAny(in, -1, expectation, null)));
        }
    }

    /**
     * Whether {@code proofBytes} proves exactly {@code expected} under {@code key}, for callers that need no reason.
     *
     * @param key the verifying key
     * @param expected the statement the proof must prove
     * @param proofBytes the whole proof
     * @return true when {@link #verify(VerifyingKey, Statement, byte[])} accepts it, false when it rejects it
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     */
    public static boolean isValid(VerifyingKey key, Statement expected, byte[] proofBytes) {
        try {
            verify(key, expected, proofBytes);
            return true;
        } catch (ProofRejectedException e) {
            return false;
        }
    }

    /**
     * The size bound the stream and file readers apply: longer input is refused unread.
     *
     * @param key the verifying key
     * @param expected the statement
     * @return the largest proof of {@code expected} under any option set {@code key} accepts, in bytes
     * @throws io.jstark.protocol.InvalidStatementException when {@code expected} names a definition the key lacks
     */
    public static long maxProofBytes(VerifyingKey key, Statement expected) {
        return Expectation.maxProofBytes(key, expected);
    }

    /**
     * Verifies {@code proofBytes} against the key alone and says what it proves. The prover chose that
     * statement: compare it with what you expect, or call {@link #verify(VerifyingKey, Statement, byte[])}.
     * The proof's size is bounded by its own table headers.
     *
     * @param key the verifying key
     * @param proofBytes the whole proof
     * @return the statement the proof proves, in the {@link VerifiedStatement.Form#DESCRIBED} form
     * @throws ProofRejectedException for an invalid proof or one of a definition the key does not hold
     */
    public static VerifiedStatement verifyAndDescribe(VerifyingKey key, byte[] proofBytes) throws ProofRejectedException {
        Expectation expectation = Expectation.describing(key);
        try (Span _ = Spans.open("verify", "bytes", proofBytes.length)) {
            return guarded(() -> run(expectation, ProofFormat.readAny(proofBytes, expectation, null)));
        }
    }

    /**
     * {@link #verifyAndDescribe(VerifyingKey, byte[])} of a proof file, read as a stream.
     *
     * @param key the verifying key
     * @param file the proof file
     * @return the statement the proof proves, in the {@link VerifiedStatement.Form#DESCRIBED} form
     * @throws ProofRejectedException for an invalid proof or one of a definition the key does not hold
     * @throws IOException when the file cannot be read
     */
    public static VerifiedStatement verifyAndDescribe(VerifyingKey key, Path file) throws ProofRejectedException, IOException {
        Expectation expectation = Expectation.describing(key);
        try (Span _ = Spans.open("verify")) {
            return guardedIo(() -> run(expectation, ProofFormat.readAny(file, expectation, null)));
        }
    }

    private static VerifiedStatement run(Expectation expectation, ParsedProof parsed) throws ProofRejectedException {
        return switch (parsed) {
            case Proof proof -> new Run(expectation, proof).verify();
            case BatchedProof proof -> new BatchedVerification(expectation, proof).verify();
        };
    }

    private interface Check {
        VerifiedStatement run() throws ProofRejectedException, IOException;
    }

    private static VerifiedStatement guarded(Check check) throws ProofRejectedException {
        try {
            return guardedIo(check);
        } catch (IOException e) {
            throw new UncheckedIOException("an array cannot fail to read", e);
        }
    }

    private static VerifiedStatement guardedIo(Check check) throws ProofRejectedException, IOException {
        try {
            return check.run();
        } catch (RuntimeException | StackOverflowError e) {
            // A hostile proof must never surface as an unchecked exception, and its rejection must not carry
            // internal text: every shape a proof can have is meant to meet a named check first.
            throw new ProofRejectedException(Reason.MALFORMED, null, "the proof is inconsistent in a way no specific check names", e);
        } catch (OutOfMemoryError e) {
            // The reader maps its own; this is the checking after it (the proof's arrays are garbage once this unwinds).
            throw ProofRejectedException.beyondHeap();
        }
    }

    /** One verification of a parsed proof whose statement the expectation has checked. */
    private static final class Run {
        private final Proof proof;
        private final ProofOptions options;
        private final Hasher hasher;
        private final Expectation expectation;

        Run(Expectation expectation, Proof proof) {
            this.expectation = expectation;
            this.proof = proof;
            this.options = proof.options();
            this.hasher = Hashers.byName(options.hash());
        }

        VerifiedStatement verify() throws ProofRejectedException {
            List<Air> airs = expectation.airs();
            Transcript global = ProofTranscript.start(hasher, options, expectation.statements());
            Ext3[] lookup = ProofTranscript.absorbMainRootsAndSampleLookupChallenges(global, proof.mainRoots());
            Ext3 balance = Ext3.ZERO;
            for (int i = 0; i < proof.tables().size(); i++) {
                Proof.TableHeader header = proof.tables().get(i);
                try (Span _ = Spans.open("verify_table", SpanLabels.TABLE_FIELD, header.name())) {
                    new TableCheck(header, airs.get(i), proof.tableProofs().get(i), proof.mainRoots().get(i), lookup,
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
            return new VerifiedStatement(options, expectation.conjecturedBits(), tables, expectation.form());
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

            TableCheck(Proof.TableHeader header, Air air, Proof.TableProof tp, byte[] mainRoot, Ext3[] lookup, Transcript t) {
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
                Ext3 z = ProofTranscript.sampleOodPoint(t, logN, logLde, Preprocessing.shift(logLde));
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
                int[] cosets = MerkleTree.openedLeaves(queries);
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
                        long x = BitReversedCoset.point(logLde, Preprocessing.shift(logLde), queries[q] * f + r);
                        values[r] = deep.evaluate(x, traceRow, compRow);
                    }
                    cosetValues[q] = values;
                }
                try {
                    FriVerifier.verifyQueries(queries, cosetValues, tp.fri(), betas, fri, logN, logLde, Preprocessing.shift(logLde), hasher);
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
                TableChecks.checkFrameShape(name, air, f, parts);
            }

            private void checkOutOfDomain(CompositionLayout layout, Ext3 alpha, Ext3 z, OodFrame f, int parts)
                    throws ProofRejectedException {
                TableChecks.checkOutOfDomain(header, air, layout, lookup, tp.busSum(), alpha, z, f, parts);
            }

            /** Checks a tree's openings at the cosets and returns the leaves (rows x width elements each). */
            private long[][] checkOpening(String tree, byte[] root, Proof.TreeOpening opening, int[] cosets, int width)
                    throws ProofRejectedException {
                if (root == null || width == 0) {
                    return null;
                }
                return TableChecks.checkOpening(hasher, name, tree, root, opening, cosets, 1 << (logLde - logF), (1 << logF) * width);
            }

            private ProofRejectedException reject(Reason reason, String message) {
                return new ProofRejectedException(reason, name, message);
            }
        }
    }
}
