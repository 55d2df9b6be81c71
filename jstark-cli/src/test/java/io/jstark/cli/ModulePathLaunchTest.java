package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command runs on the module path as well as from its class-path jar: started as {@code -m io.jstark.cli}, its
 * module graph resolves (the jstark modules, picocli, Jackson, xchart, and gRPC, protobuf and Guava as automatic
 * modules), and a proof it writes verifies there with its key and statement.
 */
class ModulePathLaunchTest {
    @TempDir
    Path dir;

    /** The test JVM's class path less its test classes: the main classes and jars of the CLI and everything it reads. */
    private static String modulePath() {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.endsWith("test-classes")) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Runs {@code jstark args} as module io.jstark.cli in a JVM of its own; its output, after checking it exited with 0. */
    private String run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ChildJvm.java(),
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=io.jstark.instrument,io.jstark.math",
                "-Xmx512m",
                "--show-module-resolution",
                "-p",
                modulePath(),
                "-m",
                "io.jstark.cli/io.jstark.cli.Main"));
        command.addAll(List.of(args));
        return ChildJvm.runOk(command, dir.resolve("out.txt"));
    }

    @Test
    void aProofMadeOnTheModulePathVerifiesThereWithItsKeyAndStatement() throws Exception {
        String proved = run(
                "prove",
                "--example",
                "fib",
                "--size",
                "2^6",
                "--no-report",
                "-o",
                dir.resolve("fib.bin").toString(),
                "--write-key",
                "--write-statement");
        // resolved as named modules from the module path, not loaded from the class path
        assertThat(proved)
                .contains("root io.jstark.cli ")
                .contains("requires io.jstark.prover file:")
                .contains("proof written");
        String verified = run(
                "verify",
                dir.resolve("fib.bin").toString(),
                "--key",
                dir.resolve("fib.key").toString(),
                "--expect",
                dir.resolve("fib.statement.json").toString());
        assertThat(verified).contains("VALID");
    }
}
