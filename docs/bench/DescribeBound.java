import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.*;
import io.jstark.protocol.*;
import io.jstark.verifier.*;
import java.util.*;

public class DescribeBound {
    public static void main(String[] args) throws Exception {
        DescribeLimits limits = DescribeLimits.defaults();
        for (String name : args) {
            Example e = Examples.byName(name);
            try (Workload w = e.generate(e.defaultLogSize(), 1);
                 JstarkProver prover = Jstark.prover(e.airs()).options(ProofOptions.defaults()).build()) {
                byte[] proof = prover.prove(w.tables()).bytes();
                VerifyingKey key = prover.verifyingKey();
                long bound = StarkVerifier.maxDescribedProofBytes(key, limits);
                long[] ns = new long[15];
                for (int i = 0; i < 5; i++) StarkVerifier.verifyAndDescribe(key, proof);
                for (int i = 0; i < ns.length; i++) {
                    long t = System.nanoTime();
                    StarkVerifier.verifyAndDescribe(key, proof);
                    ns[i] = System.nanoTime() - t;
                }
                Arrays.sort(ns);
                double ms = ns[ns.length / 2] / 1e6;
                System.out.printf("%s 2^%d: %d tables, proof %,d bytes, describe median %.1f ms (%.1f ms/100KB); bound %,d bytes -> %.0f ms at that rate%n",
                        name, e.defaultLogSize(), w.tables().size(), proof.length, ms, ms * 100_000 / proof.length, bound, ms * bound / proof.length);
                boolean noPre = e.airs().stream().allMatch(a -> a.preprocessedWidth() == 0);
                if (noPre) {
                    System.out.printf("  any-options key (VerifyingKey.of): bound %,d bytes%n", StarkVerifier.maxDescribedProofBytes(VerifyingKey.of(e.airs()), limits));
                }
            }
        }
    }
}
