package io.jstark.prover;

import io.jstark.math.field.Ext3;

/** A table's LogUp step: its aux LDE and tree, and its bus sum. */
record AuxCommitment(HostCommitment commitment, Ext3 busSum) {}
