package io.jstark.cli;

/**
 * Least-squares line y = intercept + slope * x, with the coefficient of determination R^2 (1 - residual sum of
 * squares / total sum of squares, both weighted as the fit is; NaN when every y is the same).
 */
record LinearFit(double slope, double intercept, double rSquared) {

    /** The ordinary fit: every point's error counts in y's unit, so the largest y weigh the most. */
    static LinearFit of(double[] x, double[] y) {
        double[] weights = new double[y.length];
        java.util.Arrays.fill(weights, 1);
        return weighted(x, y, weights);
    }

    /**
     * The fit of the relative errors (weights 1 / y^2): every point counts by its error as a share of its own y, so
     * that y values spanning orders of magnitude are all fitted, not only the largest. Every y must be positive.
     */
    static LinearFit relative(double[] x, double[] y) {
        double[] weights = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            if (!(y[i] > 0)) {
                throw new IllegalArgumentException("a relative fit needs positive values, got " + y[i]);
            }
            weights[i] = 1 / (y[i] * y[i]);
        }
        return weighted(x, y, weights);
    }

    private static LinearFit weighted(double[] x, double[] y, double[] w) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("a line needs at least two points with an x and a y each, got "
                    + x.length + " x and " + y.length + " y");
        }
        int n = x.length;
        double total = 0;
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++) {
            total += w[i];
            meanX += w[i] * x[i];
            meanY += w[i] * y[i];
        }
        meanX /= total;
        meanY /= total;
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxx += w[i] * (x[i] - meanX) * (x[i] - meanX);
            sxy += w[i] * (x[i] - meanX) * (y[i] - meanY);
            syy += w[i] * (y[i] - meanY) * (y[i] - meanY);
        }
        if (sxx == 0) {
            throw new IllegalArgumentException("a line needs at least two distinct x values");
        }
        double slope = sxy / sxx;
        double intercept = meanY - slope * meanX;
        double residual = 0;
        for (int i = 0; i < n; i++) {
            double e = y[i] - (intercept + slope * x[i]);
            residual += w[i] * e * e;
        }
        return new LinearFit(slope, intercept, syy == 0 ? Double.NaN : 1 - residual / syy);
    }

    double at(double x) {
        return intercept + slope * x;
    }
}
