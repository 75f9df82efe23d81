package dev.basalt.store.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.io.Checksums;

/**
 * Reads through the file's memory mappings (the default): records written after a mapping was
 * made, while the file grows past it and past the point where a larger mapping replaces it, read
 * back exactly; a byte changed in the file behind the store's back is caught by the checksum on
 * the mapped path too; and closing unmaps, so the file can be deleted and the journal reopened.
 */
class JournalMappingTest {
    @TempDir
    Path dir;

    @Test
    void recordsReadExactlyWhileTheFileGrowsPastItsMappings() throws Exception {
        assertTrue(JournalFile.MAP_READS, "mapped reads are the default");
        Path p = dir.resolve("j");
        Random random = new Random(7);
        List<Long> addresses = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            long written = 0;
            while (written < 3 * (64L << 20) / 2) {
                byte[] b = new byte[1 + random.nextInt(64 * 1024)];
                random.nextBytes(b);
                addresses.add(j.write(ByteBuffer.wrap(b)));
                payloads.add(b);
                written += b.length;
                if (addresses.size() % 50 == 0) {
                    // read an old and the newest record: maps the file, then finds it grown past the map
                    int old = random.nextInt(addresses.size());
                    assertArrayEquals(payloads.get(old), bytes(j.read(addresses.get(old), Checksums.crc32c(payloads.get(old), 0, payloads.get(old).length))));
                    int last = addresses.size() - 1;
                    assertArrayEquals(payloads.get(last), bytes(j.read(addresses.get(last), Checksums.crc32c(payloads.get(last), 0, payloads.get(last).length))));
                }
            }
            for (int i = 0; i < addresses.size(); i++) {
                assertArrayEquals(payloads.get(i), bytes(j.read(addresses.get(i), Checksums.crc32c(payloads.get(i), 0, payloads.get(i).length))), "record " + i);
            }
            // a byte changed behind the journal's back is seen through the mapping and caught
            int victim = addresses.size() / 2;
            long at = Addresses.offset(addresses.get(victim)) + 8 + payloads.get(victim).length / 2;
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
                ByteBuffer one = ByteBuffer.allocate(1);
                ch.read(one, at);
                one.flip();
                one.put(0, (byte) (one.get(0) ^ 0x40));
                ch.write(one, at);
            }
            byte[] damaged = payloads.get(victim);
            assertThrows(CorruptRecordException.class,
                    () -> j.read(addresses.get(victim), Checksums.crc32c(damaged, 0, damaged.length)));
        }
        Files.delete(p);
        try (Journal j = Journal.open(dir.resolve("j2"), JournalConfig.defaults())) {
            byte[] b = { 1, 2, 3 };
            long a = j.write(ByteBuffer.wrap(b));
            assertArrayEquals(b, bytes(j.read(a, Checksums.crc32c(b, 0, 3))));
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }
}
