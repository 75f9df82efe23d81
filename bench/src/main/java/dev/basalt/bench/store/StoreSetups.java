package dev.basalt.bench.store;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.lmdb.LmdbStore;
import org.eclipse.rdf4j.sail.lmdb.config.LmdbStoreConfig;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.eclipse.rdf4j.sail.nativerdf.NativeStore;

/**
 * The registry of store setups the comparison knows. Each peer runs in its default index
 * configuration and in one with an object-first index added, so that no store is judged by a
 * missing index. Basalt's default already has an object-first index; its second setup uses the
 * peers' default pair, so both comparisons are on equal index sets.
 *
 * <p>Immutable; safe to share between threads (each sail a setup creates follows its own store's thread
 * rules).
 */
public enum StoreSetups implements StoreSetup {

	BASALT("basalt", "Basalt, default indexes, in a BasaltRepository (query template cache)", true, 0) {
		@Override
		public Sail createSail(Path dataDir) {
			return new BasaltStore(dataDir.toFile(), new BasaltStoreConfig());
		}

		@Override
		public Repository repository(Sail sail) {
			return new BasaltRepository(sail);
		}
	},
	BASALT_PLAIN("basalt-plain", "Basalt, default indexes, in a plain SailRepository (every query parsed)", true, 0) {
		@Override
		public Sail createSail(Path dataDir) {
			return new BasaltStore(dataDir.toFile(), new BasaltStoreConfig());
		}
	},
	BASALT_TWO("basalt-2idx", "Basalt with the peers' default indexes only", true, 0) {
		@Override
		public Sail createSail(Path dataDir) {
			BasaltStoreConfig config = new BasaltStoreConfig();
			config.setStatementIndexes(DEFAULT_INDEXES);
			return new BasaltStore(dataDir.toFile(), config);
		}

		@Override
		public Repository repository(Sail sail) {
			return new BasaltRepository(sail);
		}
	},
	NATIVE("native", "RDF4J NativeStore 5.0.3, default indexes", true, 0) {
		@Override
		public Sail createSail(Path dataDir) {
			return new NativeStore(dataDir.toFile(), DEFAULT_INDEXES);
		}
	},
	NATIVE_OSP("native-osp", "RDF4J NativeStore 5.0.3, object-first index added", true, 0) {
		@Override
		public Sail createSail(Path dataDir) {
			return new NativeStore(dataDir.toFile(), OBJECT_FIRST_INDEXES);
		}
	},
	LMDB("lmdb", "RDF4J LmdbStore 5.0.3, default indexes", true, 0) {
		@Override
		public Sail createSail(Path dataDir) {
			return new LmdbStore(dataDir.toFile(), new LmdbStoreConfig(DEFAULT_INDEXES));
		}
	},
	LMDB_OSP("lmdb-osp", "RDF4J LmdbStore 5.0.3, object-first index added", true, 0) {
		@Override
		public Sail createSail(Path dataDir) {
			return new LmdbStore(dataDir.toFile(), new LmdbStoreConfig(OBJECT_FIRST_INDEXES));
		}
	},
	MEMORY("memory", "RDF4J MemoryStore 5.0.3 (not persisted)", false, 600) {
		@Override
		public Sail createSail(Path dataDir) {
			return new MemoryStore();
		}
	};

	/** The default triple indexes of both NativeStore and LmdbStore in RDF4J 5.0.3. */
	public static final String DEFAULT_INDEXES = "spoc,posc";
	/** The default indexes plus one that starts with the object. */
	public static final String OBJECT_FIRST_INDEXES = "spoc,posc,ospc";

	private final String setupName;
	private final String description;
	private final boolean persistent;
	private final long heapBytesPerTriple;

	StoreSetups(String setupName, String description, boolean persistent, long heapBytesPerTriple) {
		this.setupName = setupName;
		this.description = description;
		this.persistent = persistent;
		this.heapBytesPerTriple = heapBytesPerTriple;
	}

	@Override
	public String description() {
		String indexes = switch (this) {
		case BASALT -> " (spoc,posc,ospc,cspo)";
		case NATIVE, LMDB, BASALT_TWO -> " (" + DEFAULT_INDEXES + ")";
		case NATIVE_OSP, LMDB_OSP -> " (" + OBJECT_FIRST_INDEXES + ")";
		default -> "";
		};
		return description + indexes;
	}

	@Override
	public boolean persistent() {
		return persistent;
	}

	@Override
	public long heapBytesPerTriple() {
		return heapBytesPerTriple;
	}

	@Override
	public String id() {
		return setupName;
	}

	@Override
	public String toString() {
		return setupName;
	}

	/**
	 * Resolves command-line names such as {@code native,lmdb-osp,oxigraph}; fails naming the known ones.
	 * {@code oxigraph} is the out-of-process peer {@link OxigraphSetup}.
	 */
	public static List<StoreSetup> parse(String commaSeparated) {
		return Arrays.stream(commaSeparated.split(","))
				.map(String::trim)
				.filter(s -> !s.isEmpty())
				.map(StoreSetups::byName)
				.collect(Collectors.toList());
	}

	public static StoreSetup byName(String name) {
		String wanted = name.toLowerCase(Locale.ROOT);
		if (wanted.equals(OxigraphSetup.INSTANCE.id())) {
			return OxigraphSetup.INSTANCE;
		}
		for (StoreSetups s : values()) {
			if (s.setupName.equals(wanted)) {
				return s;
			}
		}
		throw new IllegalArgumentException("Unknown store '" + name + "'; known stores: " + allNames());
	}

	/**
	 * The stores a comparison runs when none are named: all sails but {@link #BASALT_PLAIN}, which is
	 * asked for; Oxigraph too is asked for, because taking part installs it from PyPI.
	 */
	public static String defaultNames() {
		return Arrays.stream(values()).filter(s -> s != BASALT_PLAIN).map(s -> s.setupName)
				.collect(Collectors.joining(","));
	}

	public static String allNames() {
		return Arrays.stream(values()).map(s -> s.setupName).collect(Collectors.joining(",")) + ","
				+ OxigraphSetup.INSTANCE.id();
	}
}
