package io.jstark.cli;

import static io.jstark.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jstark inspect}: the format version, every security term with its arithmetic (the field term with
 * the batching challenges in it), and bytes per part that add up to the file; a version-1 proof is refused
 * naming its version.
 */
class InspectTest {
    @TempDir
    Path dir;

    @Test
    void theTermsAddUpAndThePartsAddUpToTheFile() throws Exception {
        Path proof = dir.resolve("vm.bin");
        CliTest.Result proved = cli("prove", "--example", "vm", "--size", "2^6", "--no-report", "-o", proof.toString());
        assertThat(proved.code()).as(proved.err()).isZero();
        CliTest.Result r = cli("inspect", proof.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String out = r.out();
        assertThat(out)
                .contains("format version 2")
                .contains("queries   100 bits  = 28 queries x log2(blowup 8) + 16 grinding bits = 84 + 16")
                .contains("grinding   16 bits")
                .contains("hash      128 bits");
        Matcher field = Pattern.compile(
                        "field +(\\d+) bits +(?:\\S+ +){0,1}= 192 - (\\d+) - (\\d+): extension field 3 x 64 = 192 bits, less the "
                                + "lifted LDE domain of 2\\^(\\d+) points, less ceil\\(log2 ([0-9,]+)\\)")
                .matcher(out);
        assertThat(field.find()).as(out).isTrue();
        int bits = Integer.parseInt(field.group(1));
        int logDomain = Integer.parseInt(field.group(2));
        int batching = Integer.parseInt(field.group(3));
        long functions = Long.parseLong(field.group(5).replace(",", ""));
        assertThat(bits).isEqualTo(192 - logDomain - batching);
        assertThat(field.group(4)).isEqualTo(field.group(2));
        assertThat(1L << batching).isGreaterThanOrEqualTo(functions).isLessThan(2 * functions);
        assertThat(out).contains("field " + bits + ";");
        // the parts column adds up to the file, byte for byte
        long sum = 0;
        Matcher part =
                Pattern.compile("\n([a-z][a-z ,-]+?) +([0-9,]+) +[0-9.]+%").matcher(out);
        int parts = 0;
        while (part.find()) {
            sum += Long.parseLong(part.group(2).replace(",", ""));
            parts++;
        }
        assertThat(parts).isGreaterThanOrEqualTo(10);
        assertThat(sum).isEqualTo(Files.size(proof));
    }

    @Test
    void proveAndInspectPrintTheSameSecurityForTheSameProof() {
        Path proof = dir.resolve("vm.bin");
        CliTest.Result proved = cli(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "--blowup",
                "4",
                "--queries",
                "60",
                "--no-report",
                "-o",
                proof.toString());
        assertThat(proved.code()).as(proved.err()).isZero();
        CliTest.Result inspected = cli("inspect", proof.toString());
        assertThat(inspected.code()).as(inspected.err()).isZero();
        Pattern figure =
                Pattern.compile("\\d+ conjectured bits \\(hash \\d+, queries \\d+, field \\d+; limited by [^)]+\\)");
        Matcher atProve = figure.matcher(proved.out());
        Matcher atInspect = figure.matcher(inspected.out());
        assertThat(atProve.find()).as(proved.out()).isTrue();
        assertThat(atInspect.find()).as(inspected.out()).isTrue();
        // the field term included: it pays for batching the tables into one FRI, which a formula for one table would
        // not
        assertThat(atProve.group()).isEqualTo(atInspect.group());
    }

    @Test
    void aVersionOneProofIsRefusedNamingTheVersion() throws Exception {
        Path proof = dir.resolve("fib.bin");
        assertThat(cli("prove", "--example", "fib", "--size", "2^5", "--no-report", "-o", proof.toString())
                        .code())
                .isZero();
        byte[] bytes = Files.readAllBytes(proof);
        bytes[4] = 1;
        bytes[5] = 0;
        Path old = Files.write(dir.resolve("v1.bin"), bytes);
        CliTest.Result r = cli("inspect", old.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out())
                .contains(
                        "REJECTED: proof format version 1 is not supported; this verifier reads version 2 (byte offset 4)");
    }
}
