package net.beaconcontroller.core;

/**
 * One I/O thread.
 *
 * @param thread    its name
 * @param switches  the switches it serves
 * @param busyRatio the share of the last quarter second it spent working rather than waiting for the network,
 *                  0..1 (polling after traffic with {@code controller.idleSpinMicros} counts as waiting)
 * @param busyNanos the time it has spent working since it started
 */
public record IoLoopStats(String thread, int switches, double busyRatio, long busyNanos) {
}
