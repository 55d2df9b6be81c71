package io.jstark.cli;

import io.jstark.examples.Example;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import io.jstark.verifier.VerifiedStatement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jstark verify}: checks a proof file against the example table definitions. */
@Command(name = "verify", mixinStandardHelpOptions = true, description = "Verify a proof file. Exit code 0: valid; 1: rejected.")
public final class VerifyCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "The proof file.", defaultValue = "proof.bin")
    Path file;

    @Option(names = {"-e", "--example"}, description = "Example whose table definitions the proof uses (default: found from the "
            + "table names in the proof).")
    String example;

    @Option(names = "--min-security", description = "Reject proofs below this many conjectured bits (default: ${DEFAULT-VALUE}).",
            defaultValue = "" + VerifyingKey.DEFAULT_MINIMUM_SECURITY_BITS)
    int minimumSecurity;

    @Override
    public Integer call() throws Exception {
        if (minimumSecurity < 0 || minimumSecurity > 192) {
            throw new Main.UsageException("--min-security must be in 0..192 bits, got " + minimumSecurity);
        }
        byte[] bytes = ProofFiles.read(file);
        long start = System.nanoTime();
        Proof proof;
        try {
            proof = ProofFormat.read(bytes);
        } catch (ProofRejectedException e) {
            System.out.println("REJECTED: " + e.getMessage());
            return 1;
        }
        List<Example> candidates = KnownTables.candidates(proof, example);
        if (candidates.isEmpty()) {
            System.out.println("REJECTED: no known example defines the tables this proof names");
            return 1;
        }
        ProofRejectedException last = null;
        for (Example e : candidates) {
            VerifyingKey key = VerifyingKey.of(e.airs()).withMinimumSecurityBits(minimumSecurity);
            try {
                VerifiedStatement statement = StarkVerifier.verify(key, proof);
                System.out.printf("VALID: proof of %d table(s) of example '%s' (%,d bytes, %d conjectured bits) verified in %.1f ms%n",
                        proof.tables().size(), e.name(), bytes.length, statement.conjecturedSecurityBits(),
                        (System.nanoTime() - start) / 1e6);
                System.out.println("it proves (the prover chose these; compare them with what you expect):");
                for (VerifiedStatement.Table t : statement.tables()) {
                    System.out.println("  " + t);
                }
                return 0;
            } catch (ProofRejectedException rejected) {
                last = rejected;
            }
        }
        System.out.println("REJECTED: " + last.getMessage());
        return 1;
    }
}
