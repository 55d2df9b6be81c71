package io.jstark.cli;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Checks input files (proofs, keys, statements) before anything reads them. */
final class ProofFiles {
    private ProofFiles() {}

    /**
     * @throws NoSuchFileException when {@code file} does not exist
     * @throws Main.InputException when it is not a regular file
     */
    static Path requireFile(Path file, String what) throws NoSuchFileException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString());
        }
        if (!Files.isRegularFile(file)) {
            throw new Main.InputException(file + " is not a regular file (" + what + " is one)");
        }
        return file;
    }
}
