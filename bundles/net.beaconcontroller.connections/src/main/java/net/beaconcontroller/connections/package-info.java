/**
 * Switch connections kept open while the core is swapped: the core hands its switches' sockets to
 * {@link net.beaconcontroller.connections.IConnectionHolder} when it stops and the next core takes them back, so an
 * update of the core is not seen by the switches. This bundle depends on nothing of Beacon's, so that updating any
 * other bundle never restarts it.
 */
package net.beaconcontroller.connections;
