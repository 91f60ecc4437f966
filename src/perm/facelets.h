// Facelet strings: a position written sticker by sticker, as Kociemba's cube solvers and Cube
// Explorer read a cube. Each sticker is the name (one character) of the face whose colour it
// shows; the faces come in the net's facelet order (net.h: the `Facelets` line; the 3x3x3's
// is U R F D L B), each face row by row as the net draws it. Any definition whose net is
// a grid of square faces with one-character names reads and writes them (docs/perm.md).
#pragma once
#include <string>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/net.h"

namespace tansaku::perm {

// "" when facelets apply to this net; else why not (polygon stickers, long face names,
// cells no sticker covers).
std::string facelets_unsupported(const Definition& d, const Net& net);
std::string facelets_of(const Definition& d, const Net& net, const Position& p);
// The position a facelet string shows; InputError (one line, starting with `what`) naming
// the problem: the length, a letter that is no face, a face's count, a centre out of place,
// a piece no position can hold, a piece twice, a twist, flip or parity no move reaches.
Position parse_facelets(const Definition& d, const Net& net, const MoveSet& ms, const std::string& text,
                        const std::string& what);

}  // namespace tansaku::perm
