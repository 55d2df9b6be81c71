// the build failed for the reason this project exists: the module boundary, not a missing class or a typo
def log = new File(basedir, 'build.log').text
assert log.contains('package io.jstark.math.ntt is not visible')
assert log.contains('does not export it to module example.internals')
