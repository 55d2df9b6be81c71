import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.examples.*;
import io.jstark.protocol.*;
import io.jstark.verifier.*;

public class Heights {
    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Example e = Examples.byName(name);
            try (JstarkProver prover = Jstark.prover(e.airs()).options(ProofOptions.defaults()).build()) {
                VerifyingKey key = prover.verifyingKey();
                for (int h : new int[] {20, 24, 26, 28}) {
                    System.out.printf("%s key, 64 tables of at most 2^%d rows: bound %,d bytes%n", name, h,
                            StarkVerifier.maxDescribedProofBytes(key, new DescribeLimits(64, h)));
                }
            }
        }
    }
}
