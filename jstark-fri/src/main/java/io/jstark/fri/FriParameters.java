package io.jstark.fri;

/**
 * Shape of a FRI proof for a polynomial of degree below 2^logDegree evaluated on a domain of
 * 2^logDomain points.
 *
 * <p>Each fold divides the degree bound and the domain by the folding factor 2^logFoldingFactor. FRI
 * folds L times, where L is the fewest folds that bring the degree bound to 2^logFinalDegree or below,
 * but never more than the degree allows; the last layer is then sent as its coefficients.
 */
public record FriParameters(int logFoldingFactor, int logFinalDegree) {
    public FriParameters {
        if (logFoldingFactor < 1 || logFoldingFactor > 3) {
            throw new IllegalArgumentException("FRI folding factor must be 2, 4 or 8, got 2^" + logFoldingFactor);
        }
        if (logFinalDegree < 0) {
            throw new IllegalArgumentException("FRI final degree bound must be >= 1, got 2^" + logFinalDegree);
        }
    }

    public int foldingFactor() {
        return 1 << logFoldingFactor;
    }

    /** Number of folds for a polynomial of degree below 2^logDegree. */
    public int foldCount(int logDegree) {
        if (logDegree <= logFinalDegree) {
            return 0;
        }
        int wanted = (logDegree - logFinalDegree + logFoldingFactor - 1) / logFoldingFactor;
        return Math.min(wanted, logDegree / logFoldingFactor);
    }

    /** log2 of the number of coefficients sent in the clear after all folds. */
    public int logFinalCoefficients(int logDegree) {
        return logDegree - foldCount(logDegree) * logFoldingFactor;
    }

    /** Committed layers: every folded layer but the last (which is sent as coefficients). */
    public int committedLayers(int logDegree) {
        return Math.max(0, foldCount(logDegree) - 1);
    }
}
