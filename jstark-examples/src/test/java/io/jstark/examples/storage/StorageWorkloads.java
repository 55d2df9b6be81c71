package io.jstark.examples.storage;

import io.jstark.examples.Example;
import io.jstark.examples.TableShape;
import io.jstark.prover.MatrixRole;
import io.jstark.prover.memory.TableDimensions;
import io.jstark.prover.memory.TableMemory;
import io.jstark.storage.memory.MemoryModel;
import java.util.List;

/** The example workloads as the memory model sees them. */
final class StorageWorkloads {
    private StorageWorkloads() {}

    static List<TableDimensions> dimensions(Example example, int logSize) {
        return TableShape.dimensions(example.shapes(logSize));
    }

    /** Bytes of every LDE (main, aux, composition) the proof makes. */
    static long ldeBytes(MemoryModel model, List<TableDimensions> tables) {
        long bytes = 0;
        for (TableMemory t : model.tables(tables)) {
            bytes += t.allocatedBytes(MatrixRole.MAIN_LDE)
                    + t.allocatedBytes(MatrixRole.AUX_LDE)
                    + t.allocatedBytes(MatrixRole.COMPOSITION_LDE);
        }
        return bytes;
    }

    /** The largest single LDE. */
    static long largestLde(MemoryModel model, List<TableDimensions> tables) {
        long largest = 0;
        for (TableMemory t : model.tables(tables)) {
            for (MatrixRole role : List.of(MatrixRole.MAIN_LDE, MatrixRole.AUX_LDE, MatrixRole.COMPOSITION_LDE)) {
                largest = Math.max(largest, t.allocatedBytes(role));
            }
        }
        return largest;
    }
}
