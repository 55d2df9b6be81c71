package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.math.field.Goldilocks;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import io.jstark.protocol.ProofTranscript;
import io.jstark.protocol.ReadChecks;
import io.jstark.protocol.Security;
import io.jstark.protocol.Statement;
import io.jstark.protocol.StatementRules;
import io.jstark.protocol.VerifyingKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one verification accepts, checked while the proof is read: its largest size before the first byte,
 * its options right after them, its statement (against the expected one, or the describe limits, and the
 * statement rules), its security and its pinned commitments right after the table headers. All of it is
 * arithmetic and comparisons: nothing here evaluates or commits anything. What the table headers' check
 * accepts is its result, {@link Accepted}.
 */
final class Expectation implements ReadChecks {
    private final VerifyingKey key;
    private final Statement expected;
    private final DescribeLimits limits;
    private final long maxBytes;
    private Accepted accepted;

    /**
     * What the table headers' check accepted: the definitions and the transcript's view of the proof's tables, and
     * the security its options reach for them.
     *
     * @param airs the definitions of the proof's tables, in table order
     * @param statements what the transcript absorbs of each table
     * @param conjecturedBits the conjectured security of the proof's options for its tables
     */
    record Accepted(List<Air> airs, List<ProofTranscript.TableStatement> statements, int conjecturedBits) {}

    private Expectation(VerifyingKey key, Statement expected, DescribeLimits limits, long maxBytes) {
        this.key = key;
        this.expected = expected;
        this.limits = limits;
        this.maxBytes = maxBytes;
    }

    /** Exactly {@code expected} under {@code key}. */
    static Expectation of(VerifyingKey key, Statement expected) {
        return new Expectation(key, expected, null, maxProofBytes(key, expected));
    }

    /** Any statement of the key's definitions within {@code limits}. */
    static Expectation describing(VerifyingKey key, DescribeLimits limits) {
        return new Expectation(
                key,
                null,
                limits,
                ProofFormat.maxBytes(key.accepted(), key.airs(), limits.maxTables(), limits.maxLogHeight()));
    }

    /**
     * The largest proof of {@code expected} under any option set the key accepts.
     *
     * @throws InvalidStatementException when the statement names a definition the key does not hold
     */
    static long maxProofBytes(VerifyingKey key, Statement expected) {
        List<ProofFormat.TableLayout> layouts = new ArrayList<>();
        for (Statement.Table t : expected.tables()) {
            Air air = key.air(t.definition());
            if (air == null) {
                throw new InvalidStatementException(
                        t.name(),
                        "the expected statement names table definition '" + t.definition()
                                + "', which the verifying key does not hold");
            }
            layouts.add(new ProofFormat.TableLayout(t.name(), air, t.minLogHeight(), t.maxLogHeight()));
        }
        return ProofFormat.maxBytes(key.accepted(), layouts);
    }

    @Override
    public long maxBytes() {
        return maxBytes;
    }

    @Override
    public void checkOptions(ProofOptions options) throws ProofRejectedException {
        if (key.accepted().zeroKnowledgeRequired() && !options.zeroKnowledge()) {
            throw new ProofRejectedException(
                    Reason.UNACCEPTED_OPTIONS,
                    null,
                    "option 'zero knowledge': the verifying key requires "
                            + "zero-knowledge proofs and this proof's options (" + options + ") are without it");
        }
        if (!key.accepted().accepts(options)) {
            throw new ProofRejectedException(
                    Reason.UNACCEPTED_OPTIONS,
                    null,
                    "the proof's options (" + options + ") are not accepted by the verifying key, which accepts "
                            + key.accepted());
        }
    }

    @Override
    public long checkTables(ProofOptions options, List<Proof.TableHeader> tables) throws ProofRejectedException {
        if (expected != null) {
            compareWithExpected(tables);
        } else {
            requireWithinLimits(tables);
        }
        List<Air> resolved = new ArrayList<>(tables.size());
        List<StatementRules.Claim> claims = new ArrayList<>(tables.size());
        for (Proof.TableHeader h : tables) {
            Air air = key.air(h.airName());
            if (air == null) {
                throw new ProofRejectedException(
                        Reason.STATEMENT,
                        h.name(),
                        "table definition '" + h.airName() + "' is not in the verifying key");
            }
            resolved.add(air);
            claims.add(new StatementRules.Claim(h.name(), air, h.logHeight(), h.publicInputs().length));
        }
        try {
            StatementRules.check(claims, options);
        } catch (InvalidStatementException e) {
            throw new ProofRejectedException(Reason.STATEMENT, e.table(), e.rule());
        }
        int bits = Security.of(options, claims).conjecturedBits();
        if (bits < options.requiredSecurityBits()) {
            throw new ProofRejectedException(
                    Reason.INSECURE_OPTIONS,
                    null,
                    "proof claims " + options.requiredSecurityBits() + " bits of security but its options give "
                            + bits);
        }
        if (bits < key.minimumSecurityBits()) {
            throw new ProofRejectedException(
                    Reason.INSECURE_OPTIONS,
                    null,
                    "proof options give " + bits + " conjectured bits of security; the verifying key requires "
                            + key.minimumSecurityBits());
        }
        List<ProofTranscript.TableStatement> out = new ArrayList<>(tables.size());
        List<ProofFormat.TableLayout> layouts = new ArrayList<>(tables.size());
        for (int i = 0; i < tables.size(); i++) {
            Proof.TableHeader h = tables.get(i);
            Air air = resolved.get(i);
            byte[] pinned = pinnedRoot(h, air, options);
            out.add(new ProofTranscript.TableStatement(
                    h.name(), h.airName(), key.digest(air.name()), h.logHeight(), h.publicInputs(), pinned));
            layouts.add(ProofFormat.TableLayout.of(h.name(), air, h.logHeight()));
        }
        this.accepted = new Accepted(List.copyOf(resolved), List.copyOf(out), bits);
        return ProofFormat.maxBytes(options, layouts);
    }

    private void requireWithinLimits(List<Proof.TableHeader> tables) throws ProofRejectedException {
        if (tables.size() > limits.maxTables()) {
            throw new ProofRejectedException(
                    Reason.TOO_LARGE,
                    null,
                    "the proof has " + tables.size() + " tables; without an expected "
                            + "statement a proof is read with " + limits
                            + " (DescribeLimits, the CLI's --max-tables and --max-height; or verify "
                            + "against an expected statement)");
        }
        for (Proof.TableHeader h : tables) {
            if (h.logHeight() > limits.maxLogHeight()) {
                throw new ProofRejectedException(
                        Reason.TOO_LARGE,
                        h.name(),
                        "2^" + h.logHeight() + " rows; without an expected statement a "
                                + "proof is read with " + limits
                                + " (DescribeLimits, the CLI's --max-tables and --max-height; or verify against an "
                                + "expected statement)");
            }
        }
    }

    private void compareWithExpected(List<Proof.TableHeader> tables) throws ProofRejectedException {
        List<Statement.Table> want = expected.tables();
        if (tables.size() != want.size()) {
            throw new ProofRejectedException(
                    Reason.STATEMENT,
                    null,
                    "the proof has " + tables.size() + " tables, the expected statement " + want.size());
        }
        for (int i = 0; i < want.size(); i++) {
            Statement.Table w = want.get(i);
            Proof.TableHeader h = tables.get(i);
            if (!h.name().equals(w.name())) {
                throw new ProofRejectedException(
                        Reason.STATEMENT, h.name(), "table " + i + " of the expected statement is '" + w.name() + "'");
            }
            if (!h.airName().equals(w.definition())) {
                throw new ProofRejectedException(
                        Reason.STATEMENT,
                        h.name(),
                        "definition '" + h.airName() + "', the expected statement says '" + w.definition() + "'");
            }
            if (!w.admitsHeight(h.logHeight())) {
                throw new ProofRejectedException(
                        Reason.STATEMENT,
                        h.name(),
                        "height 2^" + h.logHeight() + ", the expected statement says " + w.heights());
            }
            if (!w.admitsPublicInputs(h.publicInputs())) {
                throw new ProofRejectedException(
                        Reason.STATEMENT,
                        h.name(),
                        "public inputs " + Goldilocks.toString(h.publicInputs()) + ", the expected statement says "
                                + Goldilocks.toString(w.publicInputs()));
            }
        }
    }

    /** The key's root for a table with preprocessed columns (null without), equal to the one the proof names. */
    private byte[] pinnedRoot(Proof.TableHeader h, Air air, ProofOptions options) throws ProofRejectedException {
        if (air.preprocessedWidth() == 0) {
            if (h.preprocessedRoot() != null) {
                throw new ProofRejectedException(
                        Reason.PREPROCESSED_COMMITMENT,
                        h.name(),
                        "the proof commits preprocessed columns the table does not have");
            }
            return null;
        }
        byte[] pinned = key.pinnedRoot(air, options);
        if (pinned == null) {
            throw new ProofRejectedException(
                    Reason.UNACCEPTED_OPTIONS,
                    h.name(),
                    "the verifying key pins no preprocessed commitment under " + "the proof's options");
        }
        if (h.preprocessedRoot() == null) {
            throw new ProofRejectedException(
                    Reason.PREPROCESSED_COMMITMENT,
                    h.name(),
                    "the proof lacks the commitment to the table's preprocessed columns");
        }
        if (!Arrays.equals(pinned, h.preprocessedRoot())) {
            throw new ProofRejectedException(
                    Reason.PREPROCESSED_COMMITMENT,
                    h.name(),
                    "the preprocessed commitment differs from the one pinned in the verifying key");
        }
        return pinned;
    }

    /** {@return what the table headers' check accepted: set while the proof is read, before its body} */
    Accepted accepted() {
        if (accepted == null) {
            throw new IllegalStateException("the proof's table headers have not been checked");
        }
        return accepted;
    }

    /** Whether the statement was compared with an expected one. */
    VerifiedStatement.Form form() {
        return expected == null ? VerifiedStatement.Form.DESCRIBED : VerifiedStatement.Form.EXPECTED;
    }

    int minimumSecurityBits() {
        return key.minimumSecurityBits();
    }
}
