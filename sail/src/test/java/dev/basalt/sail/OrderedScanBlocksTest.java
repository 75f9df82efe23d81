package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sail.SailRepositoryConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.sail.read.LatestSnapshots.SnapshotQuadSource;
import dev.basalt.sail.read.ReadSource;

/**
 * A snapshot's ordered scan ({@link SnapshotQuadSource#orderedScan}) read by blocks, single
 * matches and forward seeks in random turns gives the matches of the pattern in the index's order,
 * each once: {@code nextBlock} goes on after the last match any call gave, and a seek after a block
 * starts from the block's last match.
 */
class OrderedScanBlocksTest {
    private static final String EX = "http://example.org/";

    @TempDir
    File dir;

    @Test
    void blocksSingleMatchesAndSeeksInterleaveAsTheIndexOrders() {
        ValueFactory vf = SimpleValueFactory.getInstance();
        SailRepository repo = TestRepos.open(dir);
        IRI p = vf.createIRI(EX, "p");
        Random random = new Random(38);
        try (SailRepositoryConnection c = repo.getConnection()) {
            List<Statement> data = new ArrayList<>();
            for (int i = 0; i < 6_000; i++) {
                // objects in runs of up to 40 subjects, with gaps between the runs' objects
                int o = random.nextInt(20) == 0 ? 7 : random.nextInt(900) * 3;
                data.add(vf.createStatement(vf.createIRI(EX, "s" + i), p, vf.createIRI(EX, "o" + o)));
                data.add(vf.createStatement(vf.createIRI(EX, "s" + i), vf.createIRI(EX, "q"), vf.createLiteral(i)));
            }
            c.add(data);
            BasaltStore store = (BasaltStore) repo.getSail();
            try (ReadSource.Lease lease = store.latestSnapshot()) {
                SnapshotQuadSource source = new SnapshotQuadSource(lease.view(), false, vf);
                long[] pattern = { 0, source.lookup(p), 0, 0 };
                List<long[]> model = new ArrayList<>();
                try (QuadSource.Scan s = source.scan(pattern)) {
                    long[] q = new long[4];
                    while (s.next(q)) {
                        model.add(q.clone());
                    }
                }
                model.sort((x, y) -> {
                    for (int i : new int[] { 2, 0, 3 }) {
                        int cmp = Long.compareUnsigned(x[i], y[i]);
                        if (cmp != 0) {
                            return cmp;
                        }
                    }
                    return 0;
                });
                for (int round = 0; round < 20; round++) {
                    List<long[]> read = new ArrayList<>();
                    int at = 0;
                    try (QuadSource.OrderedScan scan = source.orderedScan(pattern, 2)) {
                        long[] quad = new long[4];
                        long[] block = new long[4 * 300];
                        while (true) {
                            int turn = random.nextInt(3);
                            if (turn == 0 || read.isEmpty()) {
                                if (!scan.next(quad)) {
                                    assertEquals(model.size(), at, "matches before the end");
                                    break;
                                }
                                read.add(quad.clone());
                                at++;
                            } else if (turn == 1) {
                                int n = scan.nextBlock(block, 1 + random.nextInt(300));
                                if (n == 0) {
                                    assertEquals(model.size(), at, "matches before the end");
                                    break;
                                }
                                for (int i = 0; i < n; i++) {
                                    read.add(Arrays.copyOfRange(block, 4 * i, 4 * i + 4));
                                    assertEquals(Arrays.toString(model.get(at + i)), Arrays.toString(read.get(read.size() - 1)),
                                            "block match " + (at + i));
                                }
                                at += n;
                            } else {
                                long last = read.get(read.size() - 1)[2];
                                int target = at;
                                while (target < model.size() && model.get(target)[2] == last) {
                                    target++;
                                }
                                target = Math.min(model.size(), target + random.nextInt(200));
                                if (target >= model.size()) {
                                    break;
                                }
                                long min = model.get(target)[2];
                                while (target > 0 && model.get(target - 1)[2] == min) {
                                    target--;
                                }
                                if (!scan.seek(min, quad)) {
                                    break;
                                }
                                // the seek skips the model's matches below min
                                read.clear();
                                read.add(quad.clone());
                                assertEquals(Arrays.toString(model.get(target)), Arrays.toString(quad), "seek to " + min);
                                at = target + 1;
                                continue;
                            }
                            assertEquals(Arrays.toString(model.get(at - 1)), Arrays.toString(read.get(read.size() - 1)),
                                    "match " + (at - 1));
                        }
                    }
                }
            }
        } finally {
            repo.shutDown();
        }
    }
}
