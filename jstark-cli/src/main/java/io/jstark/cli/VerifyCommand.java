package io.jstark.cli;

import io.jstark.examples.Example;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.PreprocessedCache;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.Security;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.DescribeLimits;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jstark verify}: with {@code --key} and {@code --expect}, accepts only a proof of exactly the
 * expected statement under the caller's key; with less, it describes what a proof proves and says so.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = {
            "Verify a proof file.",
            "With --key KEY --expect STATEMENT.json (both written by 'jstark prove --write-key --write-statement', or the key by "
                    + "'jstark keygen'): valid only if the proof proves exactly that statement (tables, order, heights, public inputs) "
                    + "under the options the key accepts; the key is the caller's, never taken from the proof.",
            "With --key alone, or neither: it only checks that the proof proves some statement, prints that statement (the prover "
                    + "chose it) and says so; without --key it also picks the table definitions from the names in the proof, and accepts "
                    + "a proof of definitions with preprocessed columns only under a preset's options (it computes their commitments, "
                    + "or loads them from the cache of --cache-dir, so the proof does not get to choose the work)."
        })
public final class VerifyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PROOF", description = "The proof file (jstark prove -o).")
    Path file;

    @Option(
            names = "--key",
            paramLabel = "KEY",
            description = "The verifying key to trust (jstark keygen, prove --write-key).")
    Path keyFile;

    @Option(
            names = "--expect",
            paramLabel = "STATEMENT.json",
            description = "The statement the proof must prove exactly (prove " + "--write-statement); needs --key.")
    Path expectFile;

    @Option(
            names = {"-e", "--example"},
            description = "Without --key: the example whose table definitions the proof uses (default: "
                    + "found from the table names in the proof).")
    String example;

    @Option(
            names = "--min-security",
            description = "Reject proofs below this many conjectured bits (default: the key's; without " + "--key, "
                    + VerifyingKey.DEFAULT_MINIMUM_SECURITY_BITS + ").")
    Integer minimumSecurity;

    @Option(
            names = "--max-tables",
            paramLabel = "N",
            description =
                    "Without --expect: the most tables a proof may state (default: " + DescribeLimits.DEFAULT_MAX_TABLES
                            + "); with the key's options and definitions it bounds the bytes read.")
    Integer maxTables;

    @Option(
            names = "--max-height",
            paramLabel = "2^K",
            description = "Without --expect: the most rows of any table a proof may state " + "(default: 2^"
                    + DescribeLimits.DEFAULT_MAX_LOG_HEIGHT + ").")
    String maxHeight;

    @picocli.CommandLine.Mixin
    CacheOptions cache;

    @Override
    public Integer call() throws Exception {
        if (minimumSecurity != null && (minimumSecurity < 0 || minimumSecurity > Security.EXTENSION_FIELD_BITS)) {
            throw new Main.UsageException(
                    "--min-security must be in 0.." + Security.EXTENSION_FIELD_BITS + " bits, got " + minimumSecurity);
        }
        if (expectFile != null && keyFile == null) {
            throw new Main.UsageException(
                    "--expect needs --key: the statement is checked under a verifying key you trust (write one "
                            + "with 'jstark keygen' or 'jstark prove --write-key')");
        }
        if (keyFile != null && example != null) {
            throw new Main.UsageException(
                    "--example picks definitions from the proof's names; with --key the key names them");
        }
        if (expectFile != null && (maxTables != null || maxHeight != null)) {
            throw new Main.UsageException(
                    "--max-tables and --max-height bound a proof that states its own tables; with --expect the "
                            + "expected statement bounds it");
        }
        DescribeLimits limits = describeLimits();
        ProofFiles.requireFile(file, "a proof");
        Statement expected = expectFile == null ? null : StatementFile.read(expectFile);
        VerifyingKey key = keyFile == null
                ? null
                : VerifyingKey.read(ProofFiles.requireFile(keyFile, "a verifying key"), KnownTables.definitions());
        if (key != null && minimumSecurity != null) {
            key = key.withMinimumSecurityBits(minimumSecurity);
        }
        if (expected != null) {
            requireFits(key, expected);
        }
        long start = System.nanoTime();
        if (expected != null) {
            VerifiedStatement statement = StarkVerifier.verify(key, expected, file);
            valid(
                    statement,
                    start,
                    "exactly the expected statement (" + expectFile + ") under key " + keyFile + " (id " + shortId(key)
                            + ")");
            return 0;
        }
        VerifiedStatement statement;
        String source;
        if (key != null) {
            statement = StarkVerifier.verifyAndDescribe(key, file, limits);
            source = "some statement (shown below) under key " + keyFile + " (id " + shortId(key) + ")";
        } else {
            Guessed guessed = guessKeyAndVerify(limits);
            statement = guessed.statement();
            source = "some statement (shown below) of example '"
                    + guessed.example().name() + "', accepting " + guessed.accepts();
        }
        valid(statement, start, source);
        warnNoExpectation(System.err, key == null);
        return 0;
    }

    /**
     * The key and the statement are the caller's files: one naming a definition the other lacks is an input
     * error (exit 3) found before the proof is read, not a rejection of the proof.
     */
    private void requireFits(VerifyingKey key, Statement expected) {
        try {
            StarkVerifier.maxProofBytes(key, expected);
        } catch (InvalidStatementException e) {
            throw new Main.InputException(expectFile + " does not fit the key " + keyFile + ": " + e.getMessage());
        }
    }

    private void valid(VerifiedStatement statement, long start, String what) throws java.io.IOException {
        System.out.println(SafeText.of(String.format(
                "VALID: a proof of %s: %d table(s), %,d bytes, %d conjectured bits, verified in " + "%.1f ms",
                what,
                statement.tables().size(),
                Files.size(file),
                statement.conjecturedSecurityBits(),
                (System.nanoTime() - start) / 1e6)));
        System.out.println("it proves:");
        for (VerifiedStatement.Table t : statement.tables()) {
            // the prover's names (the describing forms): printed so that none can start a line of its own
            System.out.println("  " + SafeText.of(t.toString()));
        }
    }

    /** Said loudly (on stderr, after the result) whenever nothing was compared with what the caller expects. */
    static void warnNoExpectation(PrintStream err, boolean keyFromProof) {
        err.println(
                "NOTE: nothing was compared with what you expect. This only shows that the proof proves the statement printed "
                        + "above, which the prover chose"
                        + (keyFromProof
                                ? ", and the table definitions were picked from the names in the " + "proof itself"
                                : "")
                        + ". To accept only your statement: jstark verify PROOF --key KEY --expect STATEMENT.json "
                        + "(jstark prove --write-key --write-statement writes both).");
    }

    private record Guessed(Example example, VerifiedStatement statement, String accepts) {}

    /**
     * Without a key: the first example whose definitions cover the table names in the proof, under the key
     * that implies ({@link KnownTables#implied}): only its header is read to choose, and nothing is computed
     * for options the proof names unless they are a preset's. The describing mode only.
     */
    private Guessed guessKeyAndVerify(DescribeLimits limits) throws Exception {
        ProofFormat.Header header = ProofFormat.readHeader(file);
        List<Example> candidates = KnownTables.candidates(header.tables(), example);
        if (candidates.isEmpty()) {
            throw new ProofRejectedException(
                    ProofRejectedException.Reason.STATEMENT,
                    null,
                    "no known example defines the table definitions this proof names");
        }
        int bits = minimumSecurity != null ? minimumSecurity : VerifyingKey.DEFAULT_MINIMUM_SECURITY_BITS;
        PreprocessedCache disk = cache.cache();
        VerifyingKey.RootSource roots =
                disk == null ? VerifyingKey.RootSource.COMPUTE : disk.roots(WorkerPool.common());
        ProofRejectedException last = null;
        for (Example e : candidates) {
            try {
                KnownTables.ImpliedKey implied = KnownTables.implied(e, header.tables(), header.options(), bits, roots);
                return new Guessed(e, StarkVerifier.verifyAndDescribe(implied.key(), file, limits), implied.accepts());
            } catch (ProofRejectedException rejected) {
                last = rejected;
            }
        }
        throw last;
    }

    /** The limits of the describing mode: the defaults, with what --max-tables and --max-height change. */
    private DescribeLimits describeLimits() {
        DescribeLimits defaults = DescribeLimits.defaults();
        try {
            return new DescribeLimits(
                    maxTables != null ? maxTables : defaults.maxTables(),
                    maxHeight != null ? Sizes.parseLog(maxHeight, "--max-height") : defaults.maxLogHeight());
        } catch (IllegalArgumentException e) {
            throw new Main.UsageException("--max-tables / --max-height: " + e.getMessage());
        }
    }

    private static String shortId(VerifyingKey key) {
        return key.idHex().substring(0, 16);
    }
}
