package io.jstark.cli;

import io.jstark.protocol.Proof;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * What {@code prove} can write next to the proof for its verifiers: the verifying key and the statement
 * the proof proves ({@code jstark verify PROOF --key KEY --expect STATEMENT}).
 */
public final class ExpectationOutputs {
    @Option(
            names = "--write-key",
            arity = "0..1",
            paramLabel = "FILE",
            fallbackValue = "",
            description =
                    "Also write the verifying key: exactly these options, the pinned preprocessed commitments (default "
                            + "FILE: the proof's name with .key).")
    String keyFile;

    @Option(
            names = "--write-statement",
            arity = "0..1",
            paramLabel = "FILE",
            fallbackValue = "",
            description =
                    "Also write the statement the proof proves as JSON, for 'verify --expect' (default FILE: the proof's name "
                            + "with .statement.json).")
    String statementFile;

    /** Refuses, before any proving, an output that is a directory (or whose directory cannot be made). */
    void requireWritable(Path proofFile) throws IOException {
        if (keyFile != null) {
            ProveOutputs.requireWritableFile(keyFile(proofFile), "--write-key");
        }
        if (statementFile != null) {
            ProveOutputs.requireWritableFile(statementFile(proofFile), "--write-statement");
        }
    }

    /** Writes what was asked for next to {@code proofFile} and says where. */
    void write(Path proofFile, Proof proof, VerifyingKey key, PrintStream out) throws IOException {
        if (keyFile != null) {
            Path file = keyFile(proofFile);
            key.write(file);
            out.printf("verifying key written to %s (id %s)%n", file, key.idHex());
        }
        if (statementFile != null) {
            Path file = statementFile(proofFile);
            StatementFile.write(Statement.of(proof), file);
            out.printf("statement written to %s%n", file);
        }
    }

    private Path keyFile(Path proofFile) {
        return keyFile.isEmpty() ? sibling(proofFile, ".key") : Invocation.path(keyFile);
    }

    private Path statementFile(Path proofFile) {
        return statementFile.isEmpty() ? sibling(proofFile, ".statement.json") : Invocation.path(statementFile);
    }

    /** proof.bin -> proof.key: the proof's name with its extension replaced. */
    static Path sibling(Path proofFile, String suffix) {
        String name = proofFile.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return proofFile.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + suffix);
    }
}
