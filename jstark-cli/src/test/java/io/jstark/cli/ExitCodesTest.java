package io.jstark.cli;

import static io.jstark.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.prover.exec.TableProvingException;
import io.jstark.storage.SpillSpaceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every case of the one exit-code convention (0 ok/valid, 1 rejected, 2 usage, 3 input or environment,
 * 4 internal), run through {@link Main#run}, each message naming the option or file.
 */
class ExitCodesTest {
    @TempDir
    static Path dir;

    static Path proof;
    static Path key;
    static Path statement;

    @BeforeAll
    static void proveFib() {
        proof = dir.resolve("fib.bin");
        key = dir.resolve("fib.key");
        statement = dir.resolve("fib.statement.json");
        CliTest.Result r = cli(
                "prove",
                "--example",
                "fib",
                "--size",
                "2^5",
                "--no-report",
                "-o",
                proof.toString(),
                "--write-key",
                "--write-statement");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("verifying key written to " + key).contains("statement written to " + statement);
    }

    static void assertExit(int code, String mustName, String... args) {
        CliTest.Result r = cli(args);
        assertThat(r.code())
                .as("%s%nstdout: %s%nstderr: %s", String.join(" ", args), r.out(), r.err())
                .isEqualTo(code);
        assertThat(code <= 1 ? r.out() : r.err()).as(String.join(" ", args)).contains(mustName);
        assertThat(r.out() + r.err()).doesNotContain("\tat ").doesNotContain("Exception:");
    }

    @Test
    void aDescribedProofIsReadWithinTheLimitsTheCallerSets() {
        // the fib proof has one table of 2^5 rows
        assertExit(
                0,
                "VALID",
                "verify",
                proof.toString(),
                "--key",
                key.toString(),
                "--max-tables",
                "1",
                "--max-height",
                "2^5");
        assertExit(
                1,
                "REJECTED: table 'fib': 2^5 rows; without an expected statement a proof is read with at most 1 tables of at most "
                        + "2^4 rows",
                "verify",
                proof.toString(),
                "--key",
                key.toString(),
                "--max-tables",
                "1",
                "--max-height",
                "2^4");
        assertExit(
                2,
                "--max-tables / --max-height: describe limits: at most 0 tables",
                "verify",
                proof.toString(),
                "--max-tables",
                "0");
        assertExit(
                2,
                "with --expect the expected statement bounds it",
                "verify",
                proof.toString(),
                "--key",
                key.toString(),
                "--expect",
                statement.toString(),
                "--max-tables",
                "2");
    }

    @Test
    void zeroForSuccess() {
        assertExit(0, "VALID", "verify", proof.toString(), "--key", key.toString(), "--expect", statement.toString());
        assertExit(0, "", "inspect", proof.toString());
        // what every proof is now: scripts from when format 2 was opt-in still work
        assertExit(
                0,
                "proof written",
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "--no-report",
                "--format",
                "2",
                "-o",
                dir.resolve("f2.bin").toString());
        assertExit(
                0, "", "keygen", "--example", "fib", "-o", dir.resolve("k.key").toString());
    }

    @Test
    void oneForARejectedProof() throws Exception {
        Path other = dir.resolve("other.statement.json");
        Files.writeString(other, Files.readString(statement).replaceFirst("\"logHeight\" : 5", "\"logHeight\" : 6"));
        assertExit(
                1,
                "REJECTED: table 'fib': height 2^5",
                "verify",
                proof.toString(),
                "--key",
                key.toString(),
                "--expect",
                other.toString());
        Path garbage = dir.resolve("garbage.bin");
        Files.write(garbage, new byte[100]);
        assertExit(
                1,
                "REJECTED: not a jstark proof",
                "verify",
                garbage.toString(),
                "--key",
                key.toString(),
                "--expect",
                statement.toString());
        assertExit(1, "REJECTED: not a jstark proof", "inspect", garbage.toString());
    }

    @Test
    void twoForABadOptionOrValue() {
        String out = dir.resolve("x.bin").toString();
        assertExit(2, "option 'blowup'", "prove", "--example", "fib", "--size", "2^4", "--blowup", "3", "-o", out);
        assertExit(2, "--size 2^40", "prove", "--example", "fib", "--rows", "2^40", "-o", out);
        assertExit(
                2,
                "--memory-budget='0' is invalid: the memory budget must be at least 1 byte",
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "--memory-budget",
                "0",
                "-o",
                out);
        assertExit(
                2, "--memory-budget", "prove", "--example", "fib", "--size", "2^4", "--memory-budget", "-1", "-o", out);
        assertExit(2, "--storage", "prove", "--example", "fib", "--size", "2^4", "--storage", "bogus", "-o", out);
        assertExit(2, "-k/--parallelism", "prove", "--example", "fib", "--size", "2^4", "-k", "0", "-o", out);
        assertExit(2, "option 'hash'", "prove", "--example", "fib", "--size", "2^4", "--hash", "md5", "-o", out);
        assertExit(2, "raise --queries", "prove", "--example", "fib", "--size", "2^4", "--queries", "2", "-o", out);
        assertExit(
                2,
                "--format 1: proof format 1 is not supported; this release writes and reads proof format 2 only",
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "--format",
                "1",
                "-o",
                out);
        assertExit(2, "nosuch", "prove", "--example", "nosuch", "-o", out);
        assertExit(2, "--bogus", "prove", "--bogus");
        assertExit(2, "--blowup", "prove", "--blowup", "eight");
        assertExit(2, "--expect needs --key", "verify", proof.toString(), "--expect", statement.toString());
        assertExit(2, "--min-security", "verify", proof.toString(), "--min-security", "500");
        // an output option naming a directory is a bad value, not a broken environment
        assertExit(2, "is a directory", "prove", "--example", "fib", "--size", "2^4", "-o", dir.toString());
        assertExit(2, "is a directory", "keygen", "--example", "fib", "-o", dir.toString());
    }

    /** Every output (not only -o) is checked before the proof is made, not after. */
    @Test
    void everyOutputIsCheckedBeforeProving() {
        Path out = dir.resolve("outputs-first.bin");
        for (String option :
                List.of("--write-key", "--write-statement", "--timeline", "--trace-events", "--timeline-html")) {
            assertExit(
                    2,
                    option + " " + dir + " is a directory",
                    "prove",
                    "--example",
                    "fib",
                    "--size",
                    "2^4",
                    "--no-report",
                    "-o",
                    out.toString(),
                    option,
                    dir.toString());
            CliTest.Result r = cli(
                    "prove",
                    "--example",
                    "fib",
                    "--size",
                    "2^4",
                    "--no-report",
                    "-o",
                    out.toString(),
                    option,
                    dir.toString());
            assertThat(r.out()).as(option).doesNotContain("proving 'fib'");
            assertThat(out).as(option + ": nothing proven, nothing written").doesNotExist();
        }
    }

    /**
     * Keygen refuses what prove refuses (one check), a minimum no proof can reach,
     * an existing key file (unless --force), and has no silent example or file name.
     */
    @Test
    void keygenRefusesKeysNoProofCanSatisfyAndNeverReplacesOneUnasked() throws Exception {
        Path k = dir.resolve("keygen.key");
        assertExit(2, "raise --queries to 28", "keygen", "--example", "fib", "--queries", "2", "-o", k.toString());
        assertExit(
                2,
                "raise --queries to 28",
                "prove",
                "--example",
                "fib",
                "--queries",
                "2",
                "-o",
                dir.resolve("q.bin").toString());
        assertExit(
                2,
                "--min-security 150: must be in 0..100",
                "keygen",
                "--example",
                "fib",
                "--min-security",
                "150",
                "-o",
                k.toString());
        assertExit(2, "--min-security -1", "keygen", "--example", "fib", "--min-security", "-1", "-o", k.toString());
        assertThat(k).doesNotExist();
        assertExit(2, "Missing required option: '--example", "keygen", "-o", k.toString());
        assertExit(2, "Missing required option: '--output", "keygen", "--example", "fib");
        assertExit(0, "written to " + k, "keygen", "--example", "fib", "-o", k.toString());
        byte[] first = Files.readAllBytes(k);
        assertExit(2, "-o " + k + " exists", "keygen", "--example", "fib", "--preset", "secure128", "-o", k.toString());
        assertThat(Files.readAllBytes(k)).isEqualTo(first);
        assertExit(
                0,
                "written to " + k,
                "keygen",
                "--example",
                "fib",
                "--preset",
                "secure128",
                "-o",
                k.toString(),
                "--force");
        assertThat(Files.readAllBytes(k)).isNotEqualTo(first);
    }

    /**
     * The statement rules run before the memory planner, so an impossible shape is
     * a typed refusal naming the table and the rule, not the planner's internal text.
     */
    @Test
    void theStatementRulesRunBeforeThePlanner() {
        String[] shape = {"--example", "vm", "--size", "2^1", "--blowup", "2", "--folding", "8", "--security", "0"};
        for (List<String> command : List.of(
                List.of("prove", "--no-report", "-o", dir.resolve("tiny.bin").toString()), List.of("plan"))) {
            List<String> args = new java.util.ArrayList<>(command);
            args.addAll(List.of(shape));
            CliTest.Result r = cli(args.toArray(String[]::new));
            assertThat(r.code()).as(command + ": " + r.out() + r.err()).isEqualTo(2);
            assertThat(r.err())
                    .as(command.toString())
                    .contains("table 'cpu': a table of 2^1 rows is too small for folding factor 8 at blowup 2")
                    .doesNotContain("Merkle");
        }
    }

    @Test
    void threeForAMissingOrUnusableInputOrEnvironment() throws Exception {
        assertExit(
                3,
                "no such file: " + dir.resolve("none.bin"),
                "verify",
                dir.resolve("none.bin").toString());
        assertExit(
                3,
                "not a regular file",
                "verify",
                dir.toString(),
                "--key",
                key.toString(),
                "--expect",
                statement.toString());
        assertExit(
                3,
                "no such file",
                "verify",
                proof.toString(),
                "--key",
                dir.resolve("none.key").toString(),
                "--expect",
                statement.toString());
        Path damaged = dir.resolve("damaged.key");
        byte[] bytes = Files.readAllBytes(key);
        bytes[10] ^= 1;
        Files.write(damaged, bytes);
        assertExit(
                3,
                "damaged",
                "verify",
                proof.toString(),
                "--key",
                damaged.toString(),
                "--expect",
                statement.toString());
        Path notJson = dir.resolve("broken.statement.json");
        Files.writeString(notJson, "{\"format\": \"jstark-statement-1\", \"tables\": [{\"name\": 3}]}");
        assertExit(
                3,
                notJson + ": table 0: \"name\"",
                "verify",
                proof.toString(),
                "--key",
                key.toString(),
                "--expect",
                notJson.toString());
        assertExit(
                3,
                "spill directory",
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "--storage",
                "disk",
                "--spill-dir",
                dir.resolve("no-such-dir").toString(),
                "-o",
                dir.resolve("y.bin").toString());
    }

    @Test
    void fourForABugAndWrappedFailuresByTheirCause() {
        assertThat(ExitCode.of(new NullPointerException())).isEqualTo(ExitCode.INTERNAL);
        assertThat(ExitCode.of(new IllegalStateException("inconsistent"))).isEqualTo(ExitCode.INTERNAL);
        // an IllegalArgumentException is a usage error only when it is a typed refusal of a setting
        assertThat(ExitCode.of(new IllegalArgumentException("a Merkle tree has at least one leaf, got 0")))
                .isEqualTo(ExitCode.INTERNAL);
        assertThat(ExitCode.of(new io.jstark.protocol.InvalidOptionsException("blowup", "must be 2..32")))
                .isEqualTo(ExitCode.USAGE);
        assertThat(ExitCode.of(new io.jstark.protocol.InvalidStatementException("cpu", "too small")))
                .isEqualTo(ExitCode.USAGE);
        assertThat(ExitCode.of(new Main.UsageException("--x"))).isEqualTo(ExitCode.USAGE);
        // one line, the exception's class and the hint; not its internal text
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = Main.report(
                new IllegalArgumentException("internal detail\nsecond line"),
                new java.io.PrintWriter(out),
                new java.io.PrintWriter(err));
        assertThat(code).isEqualTo(4);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString().lines().toList())
                .containsExactly("jstark: internal error (java.lang.IllegalArgumentException), a bug in "
                        + "jstark; JSTARK_STACKTRACE=1 prints its stack trace");
        assertThat(ExitCode.of(new TableProvingException(
                        "main_commit", 0, "cpu", new SpillSpaceException("disk full", dir, 1, 0, null))))
                .isEqualTo(ExitCode.INPUT);
    }

    @Test
    void threeForATraceThatBreaksAConstraintOrABus() {
        // the prover's typed findings, as they reach the command: a table's failure wrapping the constraint, or the
        // refusal after the aux round
        var violation = new io.jstark.air.debug.ConstraintViolationException("cpu", "pc_step", 7, "3");
        assertThat(ExitCode.of(new TableProvingException("composition", 0, "cpu", violation)))
                .isEqualTo(ExitCode.INPUT);
        assertThat(ExitCode.of(new io.jstark.air.debug.ConstraintViolationException(
                        "cpu", "the composition polynomial is not of low degree")))
                .isEqualTo(ExitCode.INPUT);
        assertThat(ExitCode.of(new io.jstark.air.debug.BusImbalanceException("buses do not balance")))
                .isEqualTo(ExitCode.INPUT);
    }

    @Test
    void everyCommandsHelpListsTheConvention() {
        for (List<String> command : List.<List<String>>of(
                List.of(),
                List.of("prove"),
                List.of("verify"),
                List.of("keygen"),
                List.of("inspect"),
                List.of("plan"),
                List.of("profile", "phases"),
                List.of("bench", "scaling"),
                List.of("demo"))) {
            List<String> args = new java.util.ArrayList<>(command);
            args.add("--help");
            CliTest.Result r = cli(args.toArray(String[]::new));
            assertThat(r.code()).isZero();
            assertThat(r.out())
                    .as(String.join(" ", command))
                    .contains("Exit codes:")
                    .containsPattern("\n +0 +success")
                    .containsPattern("\n +1 +the proof is rejected")
                    .containsPattern("\n +2 +usage error")
                    .containsPattern("\n +3 +input or environment error")
                    .containsPattern("\n +4 +internal error");
        }
    }
}
