package io.jstark.cli;

import io.jstark.protocol.ProofFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads proof files, refusing what cannot be one before reading it into memory. */
final class ProofFiles {
    private ProofFiles() {}

    static byte[] read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString());
        }
        if (!Files.isRegularFile(file)) {
            throw new Main.UsageException(file + " is not a regular file (a proof is one)");
        }
        long size = Files.size(file);
        if (size > ProofFormat.MAX_PROOF_BYTES) {
            throw new Main.UsageException(file + " holds " + size + " bytes, more than any proof can ("
                    + ProofFormat.MAX_PROOF_BYTES + "): not a proof");
        }
        return Files.readAllBytes(file);
    }
}
