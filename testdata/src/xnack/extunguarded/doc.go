// Package extunguarded is extguarded's twin: its TestMain guards nothing,
// so its external tests need skips of their own.
package extunguarded
