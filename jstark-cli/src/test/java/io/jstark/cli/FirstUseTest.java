package io.jstark.cli;

import static io.jstark.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.cli.CliTest.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a first-time user runs into: no silent defaults, no exit 0 for nothing done, no directories made unasked. */
class FirstUseTest {
    @TempDir
    Path dir;

    @Test
    void noCommandIsAUsageErrorWithTheUsageOnStderr() {
        for (String[] args : new String[][] {{}, {"bench"}, {"profile"}}) {
            Result r = cli(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(ExitCode.USAGE.code);
            assertThat(r.err()).contains("say which command to run").contains("Usage: jstark");
            assertThat(r.out()).isEmpty();
        }
    }

    @Test
    void verifyAndInspectNeedTheProofFileNamed() {
        for (String command : new String[] {"verify", "inspect"}) {
            Result r = cli(command);
            assertThat(r.code()).as(command).isEqualTo(ExitCode.USAGE.code);
            assertThat(r.err()).contains("Missing required parameter: 'PROOF'");
        }
    }

    @Test
    void proveWithoutAnExampleSaysWhichItProves() {
        Path proof = dir.resolve("p.bin");
        Result r = cli("prove", "--size", "2^4", "--no-report", "-o", proof.toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out())
                .startsWith("note: no --example given, so the default 'vm' (others: ")
                .contains("proving 'vm'");
        Result named = cli("prove", "--example", "fib", "--size", "2^4", "--no-report", "-o", proof.toString());
        assertThat(named.out()).doesNotContain("no --example given");
    }

    @Test
    void outputsIntoAMissingDirectoryAreRefusedBeforeProvingAndNothingIsCreated() {
        Path missing = dir.resolve("not-there");
        String[][] commands = {
            {
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "-o",
                missing.resolve("p.bin").toString()
            },
            {
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "-o",
                dir.resolve("p.bin").toString(),
                "--timeline",
                missing.resolve("t.json").toString()
            },
            {"keygen", "--example", "fib", "-o", missing.resolve("k.key").toString()},
            {
                "bench",
                "scaling",
                "--example",
                "fib",
                "--sizes",
                "2^4",
                "--runs",
                "1",
                "--warmup",
                "0",
                "--plot",
                missing.resolve("s.png").toString()
            },
        };
        for (String[] args : commands) {
            Result r = cli(args);
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(ExitCode.USAGE.code);
            assertThat(r.err())
                    .contains("directory " + missing + " does not exist")
                    .contains("create it first");
            assertThat(r.out()).doesNotContain("proving");
            assertThat(missing).doesNotExist();
        }
    }

    @Test
    void theVersionComesFromTheBuild() {
        Result r = cli("--version");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("jstark " + BuildVersion.version() + "\n");
        assertThat(BuildVersion.version()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }

    @Test
    void progressOffATerminalIsOnePlainLinePerTableAndPass() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress progress = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        progress.passStarted("main_commit", 2);
        progress.tableFinished("main_commit", "cpu\u001b[31m", 1 << 10);
        progress.tableFinished("main_commit", "memory", 1 << 12);
        progress.passFinished("main_commit");
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("\r").doesNotContain("\u001b");
        assertThat(text.lines()).hasSize(4);
        assertThat(text.lines().toList().get(1))
                .contains("[############............]   1/2 tables, cpu\\u001b[31m (2^10 rows) done");
        assertThat(text.lines().toList().get(3)).contains("[########################]   2/2 tables in ");
    }

    @Test
    void offATerminalALongTablesStepsAreLinesAndAQuickTablesAreNot() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long[] now = {0};
        ConsoleProgress progress =
                new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, () -> now[0]);
        progress.passStarted("aux_and_rounds_2_4", 1);
        now[0] += ConsoleProgress.QUIET_NANOS / 2;
        progress.tableStep("aux_and_rounds_2_4", "fib", "aux");
        now[0] += ConsoleProgress.QUIET_NANOS;
        progress.tableStep("aux_and_rounds_2_4", "fib", "composition");
        now[0] += 1;
        progress.tableStep("aux_and_rounds_2_4", "fib", "ood");
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).contains("0/1 tables, fib: composition done, 3.00 s");
    }

    @Test
    void progressAtATerminalRedrawsOneBarPerPass() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress progress = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
        progress.passStarted("main_commit", 2);
        progress.tableFinished("main_commit", "cpu", 1 << 10);
        progress.passFinished("main_commit");
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text.chars().filter(c -> c == '\n').count())
                .as("one finished line per pass")
                .isEqualTo(1);
        assertThat(text).contains("\r").endsWith("1/2 tables in " + text.substring(text.lastIndexOf(" in ") + 4));
    }

    @Test
    void aJvmWithoutTheVectorModuleIsToldLoudlyThatTheKernelsRunScalar() throws Exception {
        Path out = dir.resolve("out.txt");
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "--no-report",
                "-o",
                dir.resolve("v.bin").toString());
        builder.redirectErrorStream(true).redirectOutput(out.toFile());
        Process process = builder.start();
        assertThat(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(text).isZero();
        assertThat(text).contains("NOTE: the vector path is OFF: module jdk.incubator.vector is not loaded");
        Result withModule = cli(
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "--no-report",
                "-o",
                dir.resolve("w.bin").toString());
        assertThat(withModule.out()).doesNotContain("vector path is OFF");
    }
}
