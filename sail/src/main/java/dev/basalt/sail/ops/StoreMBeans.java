package dev.basalt.sail.ops;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names and (un)registers the MBeans an open store publishes on the platform MBean server,
 * {@code dev.basalt:type=<type>,store="<absolute data directory>"}. Problems are logged, never
 * fatal: what an MBean shows stays reachable through {@code BasaltStore}. Stateless: any thread may call it.
 */
public final class StoreMBeans {
    private static final Logger LOG = LoggerFactory.getLogger(StoreMBeans.class);

    private StoreMBeans() {
    }

    public static ObjectName name(String type, Path dataDir) {
        try {
            return new ObjectName("dev.basalt:type=" + type + ",store="
                    + ObjectName.quote(dataDir.toAbsolutePath().normalize().toString()));
        } catch (JMException e) {
            throw new IllegalStateException("JMX name for " + dataDir, e);
        }
    }

    /**
     * One published MBean: {@link #close} takes it off the MBean server (once; nothing when its
     * registration had failed). Closed by the thread that shuts the store down.
     */
    public static final class Registration implements AutoCloseable {
        private final ObjectName name;
        private boolean registered;

        private Registration(ObjectName name, boolean registered) {
            this.name = name;
            this.registered = registered;
        }

        @Override
        public void close() {
            if (registered) {
                registered = false;
                try {
                    ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
                } catch (JMException e) {
                    LOG.debug("JMX name {} was already gone: {}", name, e.toString());
                }
            }
        }
    }

    /** Registers {@code bean} as {@code name}; a failure is logged and gives a registration that does nothing. */
    public static Registration publish(Object bean, ObjectName name, String what) {
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(bean, name);
            return new Registration(name, true);
        } catch (InstanceAlreadyExistsException e) {
            LOG.warn("JMX name {} is taken by another open store; its {} are not published", name, what);
        } catch (JMException | RuntimeException e) {
            LOG.warn("could not publish the {} as {}: {}", what, name, e.toString());
        }
        return new Registration(name, false);
    }
}
