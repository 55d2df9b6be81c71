package io.jstark.examples.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.lanes.LaneHashing;
import io.jstark.examples.Examples;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same proof from the scalar and the vector Merkle kernels: each in a JVM of its own, forced with
 * {@code -Djstark.crypto.lanes=scalar} and {@code =vector} (the setting is read once per JVM), for the hashes
 * with a vector kernel, on a one-table and a multi-table example; the bytes are identical and verify.
 */
class KernelProofBytesTest {
    @TempDir
    Path temp;

    private String prove(String lanes, String example, int logSize, String hash, Path out)
            throws IOException, InterruptedException {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-XX:+UseParallelGC",
                "--add-modules",
                "jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-D" + LaneHashing.PROPERTY + "=" + lanes,
                "-cp",
                System.getProperty("java.class.path"),
                KernelProofMain.class.getName(),
                example,
                Integer.toString(logSize),
                hash,
                out.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines().filter(l -> l.startsWith("KERNEL ")).findFirst().orElseThrow();
    }

    @Test
    void scalarAndVectorKernelsMakeTheSameProofBytes() throws Exception {
        for (String hash : List.of("blake3", "sha256")) {
            if (LaneHashing.vector(Hashers.byName(hash)).isEmpty()) {
                continue;
            }
            for (String example : List.of("fib", "vm")) {
                int logSize =
                        example.equals("fib") ? 12 : Examples.byName(example).defaultLogSize() - 2;
                Path scalar = temp.resolve(example + "-" + hash + "-scalar.bin");
                Path vector = temp.resolve(example + "-" + hash + "-vector.bin");
                assertThat(prove("scalar", example, logSize, hash, scalar)).contains("scalar, one message at a time");
                assertThat(prove("vector", example, logSize, hash, vector))
                        .contains("lanes x 32 bits")
                        .contains("=vector");
                byte[] bytes = Files.readAllBytes(scalar);
                assertThat(Files.readAllBytes(vector))
                        .as("%s with %s", example, hash)
                        .isEqualTo(bytes);
                Proof proof = ProofFormat.read(bytes);
                VerifyingKey key = VerifyingKey.builder(Examples.byName(example).airs())
                        .accept(proof.options())
                        .minimumSecurityBits(0)
                        .build();
                StarkVerifier.verify(key, Statement.of(proof), bytes);
            }
        }
    }
}
