package io.jstark.cli;

import static io.jstark.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jstark prove --zk}: the proof verifies, inspect says how it hides the witness, and a seed fixes its bytes. */
class ZeroKnowledgeCliTest {
    private static final String SEED = "07".repeat(32);

    @TempDir
    Path dir;

    /** The output of the last {@link #prove}. */
    private String proved;

    private Path prove(String name, String... extra) {
        Path proof = dir.resolve(name);
        String[] args = {
            "prove",
            "--example",
            "vm",
            "--size",
            "2^6",
            "--seed",
            "1",
            "--zk",
            "--no-report",
            "-o",
            proof.toString(),
            "--write-key",
            "--write-statement"
        };
        String[] all = java.util.Arrays.copyOf(args, args.length + extra.length);
        System.arraycopy(extra, 0, all, args.length, extra.length);
        CliTest.Result r = cli(all);
        assertThat(r.code()).as(r.err()).isZero();
        proved = r.out();
        return proof;
    }

    @Test
    void aZeroKnowledgeProofVerifiesAndInspectShowsItsSaltsAndHeights() throws Exception {
        Path proof = prove("vm.bin");
        String base = proof.toString().replaceFirst("\\.bin$", "");
        CliTest.Result verified =
                cli("verify", proof.toString(), "--key", base + ".key", "--expect", base + ".statement.json");
        assertThat(verified.code()).as(verified.out() + verified.err()).isZero();
        CliTest.Result inspected = cli("inspect", proof.toString());
        assertThat(inspected.code()).as(inspected.err()).isZero();
        assertThat(inspected.out())
                .contains("zero-knowledge")
                .contains("zero-knowledge yes: salt 24 bytes per leaf")
                .contains("table 'cpu': zero-knowledge: yes, salt 24 bytes, extension 2^6 -> 2^9 rows");
        // the field term counts the taller domain, the mask columns and the random codeword alike at prove and inspect
        java.util.regex.Pattern figure = java.util.regex.Pattern.compile(
                "\\d+ conjectured bits \\(hash \\d+, queries \\d+, field \\d+; limited by [^)]+\\)");
        java.util.regex.Matcher atInspect = figure.matcher(inspected.out());
        assertThat(atInspect.find()).as(inspected.out()).isTrue();
        assertThat(proved).contains(atInspect.group());
    }

    @Test
    void aSeedFixesTheBytesAndAMalformedSeedIsAUsageError() throws Exception {
        byte[] first = Files.readAllBytes(prove("a.bin", "--zk-seed", SEED));
        byte[] second = Files.readAllBytes(prove("b.bin", "--zk-seed", SEED));
        assertThat(second).isEqualTo(first);
        CliTest.Result bad = cli(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "--zk",
                "--zk-seed",
                "abc",
                "--no-report",
                "-o",
                dir.resolve("c.bin").toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("--zk-seed");
    }

    @Test
    void aKeyMadeWithZkRefusesAProofWithoutItNamingTheOption() {
        Path key = dir.resolve("zk.key");
        CliTest.Result made = cli("keygen", "--example", "vm", "--zk", "-o", key.toString());
        assertThat(made.code()).as(made.err()).isZero();
        assertThat(made.out()).contains("zero knowledge required");
        Path plain = dir.resolve("plain.bin");
        CliTest.Result proved = cli("prove", "--example", "vm", "--size", "2^6", "--no-report", "-o", plain.toString());
        assertThat(proved.code()).as(proved.err()).isZero();
        CliTest.Result verified = cli("verify", plain.toString(), "--key", key.toString());
        assertThat(verified.code()).isEqualTo(1);
        assertThat(verified.out() + verified.err()).contains("zero knowledge");
    }
}
