package io.jstark.cli;

import static io.jstark.cli.VerifyExpectTest.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jstark verify} loads only what verification needs: in a JVM of its own, -Xlog:class+load lists
 * every class it loads, and none is the prover's, the scheduler's, the storage's or the reports'.
 */
class VerifyClassLoadingTest {
    /** What verifying never needs: the packages (and the prover's entry classes) of the modules above the verifier. */
    static final List<String> FORBIDDEN = List.of(
            "io.jstark.prover.",
            "io.jstark.scheduler.",
            "io.jstark.storage.",
            "io.jstark.profile.",
            "io.jstark.Jstark");

    private static final Pattern LOADED = Pattern.compile("\\[class,load\\s*\\] (\\S+) source:");

    @TempDir
    static Path dir;

    @BeforeAll
    static void prove() {
        ok(
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
        ok(
                "prove",
                "--example",
                "mix",
                "--size",
                "2^3",
                "--no-report",
                "-o",
                dir.resolve("mix.bin").toString(),
                "--write-key",
                "--write-statement");
    }

    /** The classes a new JVM loads running {@code jstark args}, after checking that it exits with 0 saying {@code says}. */
    static List<String> loadedClasses(String says, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                ChildJvm.java(),
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx512m",
                "-Xlog:class+load=info:stdout",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        String text = ChildJvm.runOk(command, dir.resolve("out.txt"));
        assertThat(text).contains(says);
        List<String> loaded = new ArrayList<>();
        Matcher m = LOADED.matcher(text);
        while (m.find()) {
            loaded.add(m.group(1));
        }
        return loaded;
    }

    static List<String> forbidden(List<String> loaded) {
        return loaded.stream()
                .filter(c -> FORBIDDEN.stream().anyMatch(c::startsWith))
                .toList();
    }

    @Test
    void verifyingWithAKeyLoadsNoProverSchedulerStorageOrReportClass() throws Exception {
        for (String name : new String[] {"fib", "mix"}) {
            List<String> loaded = loadedClasses(
                    "VALID",
                    "verify",
                    dir.resolve(name + ".bin").toString(),
                    "--key",
                    dir.resolve(name + ".key").toString(),
                    "--expect",
                    dir.resolve(name + ".statement.json").toString());
            assertThat(loaded)
                    .as("the log is read: the verifier's classes are in it")
                    .contains("io.jstark.verifier.StarkVerifier");
            assertThat(forbidden(loaded)).as(name).isEmpty();
        }
    }

    @Test
    void verifyingWithoutAKeyLoadsNoneEitherWhenItComputesOrLoadsThePreprocessedRoots() throws Exception {
        String cache = dir.resolve("cache").toString();
        for (int run = 0; run < 2; run++) {
            List<String> loaded =
                    loadedClasses("VALID", "verify", dir.resolve("mix.bin").toString(), "--cache-dir", cache);
            assertThat(loaded).contains("io.jstark.verifier.StarkVerifier", "io.jstark.protocol.PreprocessedCache");
            assertThat(forbidden(loaded)).as("run " + run).isEmpty();
        }
    }

    @Test
    void theCheckSeesProverClassesWhereTheyAreLoaded() throws Exception {
        List<String> loaded = loadedClasses(
                "proof written",
                "prove",
                "--example",
                "fib",
                "--size",
                "2^4",
                "--no-report",
                "-o",
                dir.resolve("p.bin").toString());
        assertThat(forbidden(loaded)).contains("io.jstark.prover.StarkProver", "io.jstark.JstarkProver");
    }
}
