// Package hipcode is GPU code behind a build tag.
package hipcode
