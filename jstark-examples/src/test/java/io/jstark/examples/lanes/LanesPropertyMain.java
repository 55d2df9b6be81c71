package io.jstark.examples.lanes;

import io.jstark.crypto.hash.Hashers;
import io.jstark.crypto.merkle.MerkleTree;
import io.jstark.examples.Examples;
import io.jstark.math.memory.Matrix;
import io.jstark.math.memory.RamAllocator;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run by {@link LanesPropertyMisuseTest} in a JVM of its own with a bad {@code -Djstark.crypto.lanes}: either
 * verifies a proof file ({@code verify FILE example}) or commits a tree twice ({@code commit}); prints one line
 * per attempt: {@code OK} or {@code THROWN <class>: <message>}.
 */
public final class LanesPropertyMain {
    private LanesPropertyMain() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("verify")) {
            byte[] bytes = Files.readAllBytes(Path.of(args[1]));
            attempt(() -> {
                Proof proof = ProofFormat.read(bytes);
                VerifyingKey key = VerifyingKey.builder(Examples.byName(args[2]).airs())
                        .accept(proof.options())
                        .minimumSecurityBits(0)
                        .build();
                StarkVerifier.verify(key, Statement.of(proof), bytes);
            });
        } else {
            for (int i = 0; i < 2; i++) {
                attempt(() -> {
                    RamAllocator ram = new RamAllocator();
                    try (Matrix m = Matrix.allocate(ram, "m", 64, 2);
                            MerkleTree tree =
                                    MerkleTree.commit(m, 1, Hashers.byName("blake3"), WorkerPool.common(), ram)) {
                        tree.root();
                    }
                });
            }
        }
    }

    private interface Attempt {
        void run() throws Exception;
    }

    private static void attempt(Attempt attempt) {
        try {
            attempt.run();
            System.out.println("OK");
        } catch (Throwable t) {
            System.out.println("THROWN " + t.getClass().getName() + ": " + t.getMessage());
        }
    }
}
