package io.jstark.cli;

/**
 * Ordinary least squares line y = intercept + slope * x, with the coefficient of determination R^2
 * (1 - residual sum of squares / total sum of squares; NaN when every y is the same).
 */
record LinearFit(double slope, double intercept, double rSquared) {

    static LinearFit of(double[] x, double[] y) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("a line needs at least two points with an x and a y each, got " + x.length + " x and "
                    + y.length + " y");
        }
        int n = x.length;
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++) {
            meanX += x[i];
            meanY += y[i];
        }
        meanX /= n;
        meanY /= n;
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - meanX) * (x[i] - meanX);
            sxy += (x[i] - meanX) * (y[i] - meanY);
            syy += (y[i] - meanY) * (y[i] - meanY);
        }
        if (sxx == 0) {
            throw new IllegalArgumentException("a line needs at least two distinct x values");
        }
        double slope = sxy / sxx;
        double intercept = meanY - slope * meanX;
        double residual = 0;
        for (int i = 0; i < n; i++) {
            double e = y[i] - (intercept + slope * x[i]);
            residual += e * e;
        }
        return new LinearFit(slope, intercept, syy == 0 ? Double.NaN : 1 - residual / syy);
    }

    double at(double x) {
        return intercept + slope * x;
    }
}
