package net.beaconcontroller.core.shared;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * How an application's {@link SharedTable} writes its values. The members never load each other's classes, so the
 * format is the application's contract with its own other versions: {@link #version} goes with every entry, and a
 * member ignores (and reports) entries of a version it does not read.
 */
public interface SharedCodec<V> {
    /** The format's version, 0 to 255: raised when {@link #write} changes. */
    int version();

    void write(V value, DataOutput out) throws IOException;

    /** @throws IOException or IllegalArgumentException when the bytes are not a value */
    V read(DataInput in) throws IOException;
}
