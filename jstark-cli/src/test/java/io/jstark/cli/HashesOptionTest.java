package io.jstark.cli;

import static io.jstark.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --hashes N}: a hash example sized by its permutations, proven and verified; refused where it means nothing. */
class HashesOptionTest {
    @TempDir
    Path dir;

    @Test
    void keccakProvesTheGivenPermutationsAndTheProofVerifies() {
        Path proof = dir.resolve("keccak.bin");
        CliTest.Result prove =
                cli("prove", "--example", "keccak", "--hashes", "3", "--no-report", "-o", proof.toString());
        assertThat(prove.code()).as(prove.out() + prove.err()).isZero();
        assertThat(prove.out())
                .contains("proving 'keccak' (log2 of the trace height, for 3 permutations = 7)")
                .contains("keccak")
                .contains("proof written to");
        CliTest.Result verify = cli("verify", proof.toString());
        assertThat(verify.code()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("keccak");
    }

    @Test
    void poseidon2OfWidthTwelveProvesAndVerifies() {
        Path proof = dir.resolve("poseidon2.bin");
        CliTest.Result prove = cli(
                "prove",
                "--example",
                "poseidon2",
                "--width",
                "12",
                "--hashes",
                "50",
                "--no-report",
                "-o",
                proof.toString());
        assertThat(prove.code()).as(prove.out() + prove.err()).isZero();
        assertThat(prove.out())
                .contains("proving 'poseidon2' (log2 of the trace height, for 50 width-12 permutations = 3)");
        CliTest.Result verify = cli("verify", proof.toString());
        assertThat(verify.code()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("poseidon2-w12x8");
        CliTest.Result badWidth = cli("plan", "--example", "poseidon2", "--width", "16");
        assertThat(badWidth.code()).isEqualTo(2);
        assertThat(badWidth.err()).contains("--width 16: Poseidon2 over Goldilocks: width 16 is not 8 or 12");
        CliTest.Result notPoseidon = cli("plan", "--example", "keccak", "--width", "12");
        assertThat(notPoseidon.code()).isEqualTo(2);
        assertThat(notPoseidon.err())
                .contains("--width: only example 'poseidon2' has a state width to choose, not 'keccak'");
    }

    @Test
    void hashesIsRefusedForOtherExamplesAndBesideSize() {
        CliTest.Result fib = cli(
                "prove",
                "--example",
                "fib",
                "--hashes",
                "3",
                "-o",
                dir.resolve("fib.bin").toString());
        assertThat(fib.code()).isEqualTo(2);
        assertThat(fib.err())
                .contains("--hashes: example 'fib' proves no hash permutations (those that do: keccak, poseidon2)");
        CliTest.Result both = cli(
                "prove",
                "--example",
                "keccak",
                "--hashes",
                "3",
                "--size",
                "2^7",
                "-o",
                dir.resolve("k.bin").toString());
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--hashes and --size both size the trace");
        CliTest.Result tooMany = cli("plan", "--example", "keccak", "--hashes", "100000");
        assertThat(tooMany.code()).isEqualTo(2);
        assertThat(tooMany.err()).contains("--hashes 100000:").contains("more than 2^20");
    }
}
