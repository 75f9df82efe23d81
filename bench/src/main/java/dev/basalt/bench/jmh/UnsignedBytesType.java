package dev.basalt.bench.jmh;

import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * MVStore key type for byte strings in unsigned lexicographic order, the order Basalt's B+tree
 * keeps. Coded as MVStore's own {@code ByteArrayDataType} codes values (varint length, bytes);
 * that type cannot compare, so keys need this one.
 *
 * <p>Stateless, so its one {@link #INSTANCE} is shared by every map and any MVStore thread.
 */
final class UnsignedBytesType extends BasicDataType<byte[]> {
    static final UnsignedBytesType INSTANCE = new UnsignedBytesType();

    private UnsignedBytesType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    @Override
    public int getMemory(byte[] data) {
        return data.length;
    }

    @Override
    public void write(WriteBuffer buff, byte[] data) {
        buff.putVarInt(data.length);
        buff.put(data);
    }

    @Override
    public byte[] read(ByteBuffer buff) {
        byte[] data = new byte[DataUtils.readVarInt(buff)];
        buff.get(data);
        return data;
    }

    @Override
    public byte[][] createStorage(int size) {
        return new byte[size][];
    }
}
