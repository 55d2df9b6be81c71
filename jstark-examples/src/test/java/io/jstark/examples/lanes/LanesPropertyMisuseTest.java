package io.jstark.examples.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.examples.Example;
import io.jstark.examples.Examples;
import io.jstark.examples.Workload;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.prover.ProverSettings;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad {@code -Djstark.crypto.lanes} (or {@code vector} without the module) is refused with a typed exception
 * naming the setting at every use, never an ExceptionInInitializerError then a bare NoClassDefFoundError; and
 * the verifier, which never hashes in lanes, does not read the setting at all.
 */
class LanesPropertyMisuseTest {
    @TempDir
    Path temp;

    private static List<String> run(List<String> jvmFlags, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), LanesPropertyMain.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines()
                .filter(l -> l.startsWith("OK") || l.startsWith("THROWN"))
                .toList();
    }

    private Path proof() throws Exception {
        Example example = Examples.byName("fib");
        try (Workload workload = example.generate(10, 7);
                ProvingKey key = ProvingKey.of(example.airs());
                WorkerPool pool = WorkerPool.ofThreads(1)) {
            byte[] proof = ProofFormat.write(new StarkProver(
                            key,
                            new ProofOptions(3, 20, 4, 2, 3, "blake3", 0),
                            ProverSettings.defaults().withPool(pool))
                    .prove(workload.tables()));
            Path file = temp.resolve("fib.bin");
            Files.write(file, proof);
            return file;
        }
    }

    /** The verifier does not hash in lanes: the lanes setting must not make it throw an Error. */
    @Test
    void verifierIgnoresTheLanesSetting() throws Exception {
        Path file = proof();
        List<String> badValue = run(
                List.of("--add-modules", "jdk.incubator.vector", "-D" + LaneHashing.PROPERTY + "=fast"),
                "verify",
                file.toString(),
                "fib");
        assertThat(badValue).as("verify with -Djstark.crypto.lanes=fast").containsExactly("OK");
        List<String> vectorWithoutModule =
                run(List.of("-D" + LaneHashing.PROPERTY + "=vector"), "verify", file.toString(), "fib");
        assertThat(vectorWithoutModule)
                .as("verify with =vector and no vector module")
                .containsExactly("OK");
    }

    /** The prover refuses a bad setting with a typed exception naming it, every time (not an Error, then a bare NoClassDefFoundError). */
    @Test
    void badLanesSettingIsATypedErrorNamingTheOptionEveryTime() throws Exception {
        List<String> lines =
                run(List.of("--add-modules", "jdk.incubator.vector", "-D" + LaneHashing.PROPERTY + "=fast"), "commit");
        assertThat(lines)
                .as("two commits with -Djstark.crypto.lanes=fast:%n%s", String.join("\n", lines))
                .hasSize(2)
                .allSatisfy(line -> assertThat(line)
                        .startsWith("THROWN io.jstark.crypto.lanes.InvalidLanesSettingException")
                        .contains(LaneHashing.PROPERTY));
    }
}
