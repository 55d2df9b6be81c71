package io.jstark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.examples.Examples;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jstark verify --key --expect} in a JVM of 128 MiB of heap, on hostile proof files of every size
 * from nothing up to the largest proof the key and the statement allow, and far beyond it (a 2 GiB
 * sparse file): each one a typed rejection (exit code 1, one REJECTED line), never an Error, never a
 * stack trace; the honest proof still verifies there.
 */
class ForkedHostileVerifyTest {
    @TempDir
    Path dir;

    @Test
    void everyHostileFileIsATypedRejectionInASmallHeap() throws Exception {
        Path valid = dir.resolve("vm.bin");
        Path key = dir.resolve("vm.key");
        Path statement = dir.resolve("vm.statement.json");
        CliTest.Result proved = CliTest.cli(
                "prove",
                "--example",
                "vm",
                "--size",
                "2^6",
                "--no-report",
                "-o",
                valid.toString(),
                "--write-key",
                "--write-statement");
        assertThat(proved.code()).as(proved.err()).isZero();
        byte[] proof = Files.readAllBytes(valid);
        VerifyingKey vk = VerifyingKey.read(key, KnownTables.definitions());
        Statement expected = StatementFile.read(statement);
        long bound = StarkVerifier.maxProofBytes(vk, expected);
        assertThat(bound).isGreaterThan(proof.length).isLessThan(2L * proof.length);

        Map<String, Path> files = new LinkedHashMap<>();
        files.put("valid", valid);
        files.put("empty", write("empty.bin", new byte[0]));
        files.put("zeros-at-bound", write("zeros.bin", new byte[(int) bound]));
        files.put("valid-padded-to-bound", write("padded.bin", Arrays.copyOf(proof, (int) bound)));
        files.put("random-tail-at-bound", write("random.bin", randomTail(proof, (int) bound)));
        files.put("widest-opening-within-bound", write("widest.bin", widestOpening(ProofFormat.read(proof), bound)));
        files.put("one-byte-over-bound", write("over.bin", Arrays.copyOf(proof, (int) bound + 1)));
        files.put("element-count-2^31", write("count.bin", hugeElementCount(proof)));
        files.put("sparse-2GiB", sparse("sparse.bin", Arrays.copyOf(proof, 64), 2L << 30));
        List<String> manifest = new ArrayList<>();
        for (Map.Entry<String, Path> f : files.entrySet()) {
            manifest.add(f.getKey() + "\t" + key + "\t" + statement + "\t" + f.getValue());
        }
        // a statement so generous (4,096 tables, the most a proof holds, of up to 2^28 rows, any options) that its
        // bound
        // exceeds this heap: one opening of all tables opens at most queries x folding rows of each, so it takes that
        // many
        Path anyKey = dir.resolve("fib-any.key");
        VerifyingKey.builder(Examples.byName("fib").airs())
                .acceptAtLeast(0)
                .build()
                .write(anyKey);
        Path generous = dir.resolve("generous.statement.json");
        List<Statement.Table> tables = new ArrayList<>();
        for (int i = 0; i < 4096; i++) {
            tables.add(new Statement.Table("t" + i, "fib", 1, 28, new long[3]));
        }
        StatementFile.write(new Statement(tables), generous);
        manifest.add(
                "beyond-the-heap-within-a-generous-bound\t" + anyKey + "\t" + generous + "\t" + beyondTheHeap(tables));
        Path list = dir.resolve("manifest.tsv");
        Files.write(list, manifest);

        String output = SmallHeap.run(HostileFilesMain.class, list.toString());
        assertThat(SmallHeap.exitCode(output)).as(output).isZero();
        assertThat(output)
                .as(output)
                .contains("DONE heap")
                .doesNotContain("Exception")
                .doesNotContain("Error")
                .doesNotContain("\tat ")
                .doesNotContain("jstark: ");
        assertThat(output).contains("RESULT valid 0");
        for (String name : files.keySet()) {
            if (!name.equals("valid")) {
                assertThat(output).as(output).contains("RESULT " + name + " 1");
            }
        }
        assertThat(output)
                .contains("RESULT beyond-the-heap-within-a-generous-bound 1")
                .contains("REJECTED: the proof has 2147483648 bytes, more than the " + bound)
                .contains("REJECTED: the proof has " + (bound + 1) + " bytes")
                .contains("REJECTED: the proof needs more memory than this JVM has");
        long rejected = output.lines().filter(l -> l.startsWith("REJECTED: ")).count();
        assertThat(rejected).isEqualTo(files.size());
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    private Path sparse(String name, byte[] head, long length) throws IOException {
        return SmallHeap.sparse(dir.resolve(name), head, length);
    }

    /** The proof's header (its statement: accepted) followed by random bytes up to the bound. */
    private static byte[] randomTail(byte[] proof, int bound) {
        byte[] out = Arrays.copyOf(proof, bound);
        byte[] tail = new byte[bound - 600];
        new Random(7).nextBytes(tail);
        System.arraycopy(tail, 0, out, 600, tail.length);
        return out;
    }

    /** The main phase's first "elements per block" field set to 2^31 - 1. */
    private static byte[] hugeElementCount(byte[] proof) throws Exception {
        long at = ProofFormat.writeWithSizes(ProofFormat.read(proof)).sizes().offsetOf("main phase values");
        int field = (int) at + 2 + 4; // past the member count and the first member's block count
        byte[] out = proof.clone();
        out[field] = (byte) 0xFF;
        out[field + 1] = (byte) 0xFF;
        out[field + 2] = (byte) 0xFF;
        out[field + 3] = 0x7F;
        return out;
    }

    /**
     * The valid proof with its first table's main-phase blocks widened (as many elements per block as the
     * bound leaves room for): the largest allocation a parse of an accepted-size file can make.
     */
    private static byte[] widestOpening(Proof proof, long bound) {
        List<long[][]> members = new ArrayList<>(proof.main().blocks());
        long[][] blocks = members.getFirst();
        int width = blocks[0].length;
        long spare = bound - ProofFormat.write(proof).length;
        int wider = (int) (width + spare / 8 / blocks.length) - 1;
        long[][] widened = new long[blocks.length][];
        for (int b = 0; b < blocks.length; b++) {
            widened[b] = Arrays.copyOf(blocks[b], wider);
        }
        members.set(0, widened);
        Proof changed = new Proof(
                proof.options(),
                proof.tables(),
                proof.mainRoot(),
                proof.auxRoot(),
                proof.busSums(),
                proof.compositionRoot(),
                proof.frames(),
                proof.fri(),
                proof.powNonce(),
                proof.preprocessed(),
                new Proof.PhaseOpening(members, proof.main().siblings()),
                proof.aux(),
                proof.composition());
        byte[] out = ProofFormat.write(changed);
        assertThat((long) out.length).isLessThanOrEqualTo(bound).isGreaterThan(bound - 16L * blocks.length - 8);
        return out;
    }

    /**
     * A sparse file just below the largest proof its header allows, stating the generous statement (every
     * table at 2^28 rows), whose main phase opens 255 blocks of as many elements as the file holds:
     * within the bound, beyond the heap.
     */
    private Path beyondTheHeap(List<Statement.Table> tables) throws IOException {
        // blowup 16: 2^28 rows at blowup 32 would not fit the field's two-adic domains (a statement rule refuses it)
        ProofOptions options = new ProofOptions(4, 255, 0, 3, 0, "sha256", 0);
        List<ProofFormat.TableLayout> layouts = new ArrayList<>();
        for (Statement.Table t : tables) {
            layouts.add(ProofFormat.TableLayout.of(
                    t.name(), Examples.byName("fib").airs().getFirst(), 28));
        }
        long length = Math.min(ProofFormat.maxBytes(options, layouts), ProofFormat.MAX_PROOF_BYTES) - (1 << 20);
        assertThat(length).isGreaterThan(2L * SmallHeap.HEAP_MIB << 20);
        List<String> names = new ArrayList<>();
        for (Statement.Table t : tables) {
            names.add(t.name());
        }
        return SmallHeap.widestFibOpening(dir.resolve("beyond.bin"), options, names, length);
    }
}
