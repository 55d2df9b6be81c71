package io.jstark.cli;

import io.jstark.profile.analysis.TextTable;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.ProofSizes;
import io.jstark.protocol.Security;
import io.jstark.protocol.ZeroKnowledge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code jstark inspect}: what a proof file holds, part by part. */
@Command(
        name = "inspect",
        mixinStandardHelpOptions = true,
        description = "Show a proof's options, security, tables and the size of each part.")
public final class InspectCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PROOF", description = "The proof file (jstark prove -o).")
    Path file;

    @Override
    public Integer call() throws Exception {
        ProofSizes sizes = new ProofSizes();
        // a file that is not a readable proof is rejected (exit code 1), with the byte offset of the problem
        Proof proof = ProofFormat.read(ProofFiles.requireFile(file, "a proof"), ProofFormat.FORMAT_LIMITS, sizes);
        long length = Files.size(file);
        ProofOptions o = proof.options();
        int logLargest = 0;
        for (Proof.TableHeader h : proof.tables()) {
            logLargest = Math.max(logLargest, ZeroKnowledge.committedLogHeight(o, h.logHeight()) + o.logBlowup());
        }
        // the definitions are not in the proof: count the frame values it holds, plus one per table (and the random
        // codeword)
        long functions = o.zeroKnowledge() ? 1 : 0;
        for (io.jstark.protocol.OodFrame f : proof.frames()) {
            functions += f.size() + 1;
        }
        Security.Report security = Security.of(o, logLargest, functions);
        System.out.printf(
                "proof          %s, %,d bytes, format version %d%n",
                SafeText.of(file.toString()), length, ProofFormat.VERSION);
        System.out.printf("options        %s%n", o);
        printZeroKnowledge(proof);
        System.out.printf(
                "security       %s, as the proof claims: inspect checks no value, run verify for that%n",
                security.summary());
        for (String term : Security.describe(o, logLargest, functions)) {
            System.out.println("  " + term);
        }
        System.out.println();
        TextTable tables = new TextTable(
                TextTable.Column.right("#"),
                TextTable.Column.left("table"),
                TextTable.Column.left("definition"),
                TextTable.Column.right("rows"),
                TextTable.Column.right("public inputs"),
                TextTable.Column.left("preprocessed"),
                TextTable.Column.right("bytes"));
        for (int i = 0; i < proof.tables().size(); i++) {
            Proof.TableHeader h = proof.tables().get(i);
            long tableBytes = 0;
            for (long v : sizes.perTable().getOrDefault(h.name(), Map.of()).values()) {
                tableBytes += v;
            }
            tables.row(
                    i,
                    SafeText.of(h.name()),
                    SafeText.of(h.airName()),
                    "2^" + h.logHeight(),
                    h.publicInputs().length,
                    h.preprocessedRoot() == null ? "-" : "pinned",
                    String.format("%,d", tableBytes));
        }
        System.out.print(tables.render());
        System.out.println(
                "(a table's bytes: its frame, its preprocessed opening and its rows in each phase opening; roots, siblings"
                        + " and the FRI are shared)");
        System.out.println();
        TextTable parts = new TextTable(
                TextTable.Column.left("part"), TextTable.Column.right("bytes"), TextTable.Column.right("% of proof"));
        for (Map.Entry<String, Long> e : sizes.totals().entrySet()) {
            parts.row(
                    e.getKey(),
                    String.format("%,d", e.getValue()),
                    String.format("%.1f%%", 100.0 * e.getValue() / length));
        }
        System.out.print(parts.render());
        return 0;
    }

    /** With zero knowledge: the salt each opened leaf carries and each table's committed height (n -> n'). */
    private static void printZeroKnowledge(Proof proof) {
        ProofOptions o = proof.options();
        if (!o.zeroKnowledge()) {
            return;
        }
        System.out.printf(
                "zero-knowledge yes: salt %d bytes per leaf, h = %d random values per column%n",
                8 * ZeroKnowledge.saltElements(o), ZeroKnowledge.margin(o));
        for (Proof.TableHeader h : proof.tables()) {
            System.out.printf(
                    "  table '%s': zero-knowledge: yes, salt %d bytes, extension 2^%d -> 2^%d rows%n",
                    SafeText.of(h.name()),
                    8 * ZeroKnowledge.saltElements(o),
                    h.logHeight(),
                    ZeroKnowledge.committedLogHeight(o, h.logHeight()));
        }
    }
}
