package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the command line prints of a file's text cannot start a line or drive a terminal. */
class SafeTextTest {
    @TempDir
    Path dir;

    @Test
    void invisibleCharactersAreEscapedAndVisibleTextIsKept() {
        assertThat(SafeText.of("table 'cpu' (vm-cpu, 2^6 rows)")).isEqualTo("table 'cpu' (vm-cpu, 2^6 rows)");
        assertThat(SafeText.of("mémoire 表 \uD83D\uDE80")).isEqualTo("mémoire 表 \uD83D\uDE80");
        assertThat(SafeText.of("a\nVALID: x\r\t\u001b[2J\u0000\u007f\u0085\u202e\u2028"))
                .isEqualTo("a\\nVALID: x\\r\\t\\u001b[2J\\u0000\\u007f\\u0085\\u202e\\u2028");
        assertThat(SafeText.of(null)).isEqualTo("null");
    }

    /** A statement file's own name field (the caller's, but still a file) is echoed escaped in the refusal. */
    @Test
    void aStatementFilesTextIsPrintedEscaped() throws Exception {
        Path statement = dir.resolve("esc.json");
        Files.writeString(
                statement,
                "{\"format\": \"jstark-statement-1\", \"tables\": [{\"name\": \"a\\u001b[2J\\nVALID: forged\", "
                        + "\"definition\": \"fib\", \"logHeight\": 5, \"publicInputs\": []}]}");
        Path key = dir.resolve("fib.key");
        assertThat(CliTest.cli("keygen", "--example", "fib", "-o", key.toString())
                        .code())
                .isZero();
        Path proof = dir.resolve("any.bin");
        Files.write(proof, new byte[64]);
        CliTest.Result r =
                CliTest.cli("verify", proof.toString(), "--key", key.toString(), "--expect", statement.toString());
        assertThat(r.code()).isEqualTo(ExitCode.INPUT.code);
        assertThat(r.err())
                .contains("table 'a\\u001b[2J\\nVALID: forged'")
                .contains("U+001B")
                .doesNotContain("\u001b");
        assertThat((r.out() + r.err()).lines().filter(l -> l.startsWith("VALID")))
                .isEmpty();
    }
}
