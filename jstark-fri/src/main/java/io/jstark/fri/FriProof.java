package io.jstark.fri;

import io.jstark.math.field.Ext3;
import java.util.List;

/**
 * What FRI adds to a proof: the roots of the committed folded layers, the last layer's coefficients,
 * and for every committed layer the opened leaves (the distinct leaves the queries reach, in increasing
 * leaf order, each the f values of one coset as coefficient triples) with their batch Merkle siblings.
 */
public record FriProof(List<byte[]> layerRoots, Ext3[] finalCoefficients, List<LayerOpening> openings) {
    public FriProof {
        layerRoots = List.copyOf(layerRoots);
        finalCoefficients = finalCoefficients.clone();
        openings = List.copyOf(openings);
    }

    @Override
    public Ext3[] finalCoefficients() {
        return finalCoefficients.clone();
    }

    /**
     * One committed layer's openings.
     *
     * @param leafValues per opened leaf: f rows of 3 coefficients, row-major (3f longs)
     * @param siblings the batch Merkle siblings
     */
    public record LayerOpening(long[][] leafValues, byte[][] siblings) {}
}
