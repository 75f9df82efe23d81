/** JMH benchmarks of the storage engine against H2's MVStore; see docs/benchmarks-store.md. */
package dev.basalt.bench.jmh;
