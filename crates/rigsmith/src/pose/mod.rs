//! Pose operations, forward kinematics and skinning (LBS, DQS).
